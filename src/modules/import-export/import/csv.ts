import { parse } from "csv-parse/sync";
import { ApiError, invalidField } from "../../../platform/errors";

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
  return decodeCsv(all, type);
}

/** WHATWG labels of ISO-8859-1, which WHATWG decodes as windows-1252: a superset for printable text. */
const LATIN1 = /^(iso-?8859-1|iso_8859-1|latin-?1|l1|cp819|ibm819|windows-1252|cp1252|us-ascii|ascii)$/;

/**
 * The body as text. A declared `charset` is honoured (UTF-8, UTF-16, ISO-8859-1
 * / windows-1252, or any label the runtime's TextDecoder knows) or refused by name (415). Without
 * one, the bytes must be UTF-8: invalid UTF-8 is a 400 naming the first bad byte's row, never a
 * silent U+FFFD; a UTF-16 file (byte order mark, or NULs every other byte) gets a readable 400.
 */
export function decodeCsv(bytes: Uint8Array, contentType: string): string {
  const label = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
  if (label && !/^utf-?8$/.test(label)) {
    if (LATIN1.test(label)) return decodeLatin1(bytes);
    try {
      return new TextDecoder(label, { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch (err) {
      if (err instanceof RangeError)
        throw new ApiError(
          "unsupported_media_type",
          `charset '${label}' is not supported: send UTF-8 (or declare utf-16 or iso-8859-1)`,
        );
      throw invalidField("body", `not valid ${label}`);
    }
  }
  if (!label && looksUtf16(bytes))
    throw invalidField(
      "body",
      'this file is UTF-16 (Excel\'s "Unicode text"): save it as "CSV UTF-8", or send it with `Content-Type: text/csv; charset=utf-16`',
    );
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const before = new TextDecoder().decode(bytes.subarray(0, at));
    const row = Math.max(0, recordCount(before) - 1);
    const where = row === 0 ? "in the header row" : `in row ${row}`;
    throw new ApiError(
      "validation_failed",
      `body: not valid UTF-8 ${where} (byte ${at} is 0x${bytes[at]!.toString(16).padStart(2, "0")}): save the file as UTF-8, or declare its charset (e.g. \`text/csv; charset=iso-8859-1\`)`,
      { details: [{ path: "body", message: `not valid UTF-8 ${where}`, row, byteOffset: at }] },
    );
  }
}

const decodeLatin1 = (bytes: Uint8Array) => new TextDecoder("windows-1252").decode(bytes);

/** A UTF-16 byte order mark, or NUL in most odd (or even) positions of the first bytes. */
function looksUtf16(b: Uint8Array): boolean {
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) return true;
  const n = Math.min(b.length, 200);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) if (b[i] === 0) i % 2 ? odd++ : even++;
  return n >= 4 && Math.max(even, odd) >= n / 4;
}

/** Offset of the first byte that breaks UTF-8 (the fatal decoder says only that one does). */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    for (let k = 1; k < len; k++) if (i + k >= b.length || (b[i + k]! & 0xc0) !== 0x80) return i;
    const ok = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
    try {
      ok.decode(b.subarray(i, i + len));
    } catch {
      return i; // overlong, surrogate or out of range
    }
    i += len;
  }
  return b.length;
}

/** Records begun in a CSV prefix (the last may be cut short). */
function recordCount(prefix: string): number {
  try {
    return (
      parse(prefix, { bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true }) as unknown[]
    ).length;
  } catch {
    return prefix.split("\n").length;
  }
}
