import { parse } from "csv-parse/sync";
import { ApiError, invalidField } from "../../platform/errors";

/** Largest CSV body an import takes, and most data rows (413 beyond either). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;

/** Header matching ignores case, spaces, underscores and dashes (`Unique Tag` = `uniqueTag` = `unique_tag`). */
export const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");

export interface ParsedCsv {
  header: string[];
  /** Data rows as cells, in file order (row 1 is the first after the header). */
  rows: string[][];
}

/**
 * Parses an RFC 4180 CSV body (csv-parse): a header row, then data rows; a UTF-8 byte order mark
 * is dropped, blank lines skipped, and a quote error reported with its line (400).
 */
export function parseCsv(body: string): ParsedCsv {
  let records: string[][];
  try {
    records = parse(body, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
    }) as string[][];
  } catch (err) {
    throw invalidField("body", `not readable as CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  const [header, ...rows] = records;
  if (!header || header.every((h) => h.trim() === ""))
    throw invalidField("body", "the first line must be a header row naming the columns");
  if (rows.length === 0) throw invalidField("body", "no data rows after the header");
  if (rows.length > MAX_IMPORT_ROWS)
    throw new ApiError(
      "payload_too_large",
      `At most ${MAX_IMPORT_ROWS} rows per import (this file has ${rows.length})`,
    );
  return { header, rows };
}

/** Reads the request body as text, refusing more than MAX_IMPORT_BYTES (413) without buffering past it. */
export async function readCsvBody(req: Request): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^(text\/csv|text\/plain|application\/csv)\b/i.test(type))
    throw new ApiError("unsupported_media_type", "Send the CSV file as `Content-Type: text/csv`");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_IMPORT_BYTES)
    throw new ApiError("payload_too_large", `The CSV file exceeds ${MAX_IMPORT_BYTES} bytes`);
  if (!req.body) throw invalidField("body", "empty body");
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_IMPORT_BYTES) {
      await reader.cancel();
      throw new ApiError("payload_too_large", `The CSV file exceeds ${MAX_IMPORT_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}
