/**
 * CSV writing (RFC 4180): fields separated by commas, records by CRLF; a field holding a comma, a
 * double quote, CR or LF is quoted and its quotes doubled. Text cells that a spreadsheet would run
 * as a formula (first character `=`, `+`, `-`, `@`, or a tab / carriage return that hides one) get a
 * leading `'` (OWASP "CSV injection"); numbers and booleans are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type Cell = string | number | boolean | null | undefined;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(",")}\r\n`;

/**
 * A streamed CSV body: the header, then one page of records per pull. A page is read only when the
 * client has taken the previous one (pull-based, no queue), so memory holds about one page whatever
 * the size of the export. `pages` is an async generator of record pages.
 */
export function csvStream(header: readonly string[], pages: AsyncGenerator<Cell[][]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          // A UTF-8 byte order mark, so spreadsheet programs read non-ASCII text right.
          controller.enqueue(encoder.encode(`\uFEFF${csvRecord(header)}`));
          return;
        }
        const next = await pages.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map(csvRecord).join("")));
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A `Content-Disposition` file name: the export's name and the UTC day. */
export const attachment = (name: string) =>
  `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`;
