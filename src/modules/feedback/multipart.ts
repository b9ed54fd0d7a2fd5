import { ApiError, badRequest } from "../../platform/errors";
import { concat } from "../files";

/**
 * A streaming multipart/form-data reader (RFC 7578). Hono's `parseBody` and `Request.formData()`
 * buffer the whole body before anyone can look at it; this reads the request stream chunk by
 * chunk and hands each part's bytes to a sink as they arrive, so a sink can refuse a part (wrong
 * type, too large) after its first bytes and the rest of the body is never read. Only the bytes
 * between two chunk boundaries that could be the start of a delimiter are held back.
 */
export interface PartInfo {
  name: string;
  /** Null for a plain field; "" when a browser sends an empty file input. */
  fileName: string | null;
}

export interface PartSink {
  write(chunk: Uint8Array): void;
  end(): void;
}

export interface MultipartLimits {
  /** Total body bytes; more is a 413 as soon as the count passes it. */
  maxBytes: number;
  /** Number of parts of any kind. */
  maxParts: number;
}

const MAX_HEADER_BYTES = 8 * 1024;
const MAX_PREAMBLE_BYTES = 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLF = encoder.encode("\r\n");
const HEADER_END = encoder.encode("\r\n\r\n");
const malformed = (why: string) =>
  badRequest(`The multipart body is malformed: ${why}`, [{ path: "body", message: why }]);

/** The boundary of a `multipart/form-data` Content-Type, or null for anything else. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = hay.indexOf(first, from); i !== -1 && i <= hay.length - needle.length; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

class Scanner {
  private pos = 0;
  private total = 0;
  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly maxBytes: number,
    private buf: Uint8Array,
  ) {}

  private async fill(): Promise<boolean> {
    const r = await this.reader.read();
    if (r.done) return false;
    this.total += r.value.byteLength;
    if (this.total > this.maxBytes)
      throw new ApiError("payload_too_large", `The request body exceeds ${this.maxBytes} bytes`);
    const rest = this.buf.subarray(this.pos);
    const next = new Uint8Array(rest.byteLength + r.value.byteLength);
    next.set(rest);
    next.set(r.value, rest.byteLength);
    this.buf = next;
    this.pos = 0;
    return true;
  }

  /** Passes the bytes before `delim` to `emit` as they arrive, then consumes `delim`. */
  async until(delim: Uint8Array, emit: (bytes: Uint8Array) => void, what: string): Promise<void> {
    for (;;) {
      const at = indexOf(this.buf, delim, this.pos);
      if (at >= 0) {
        if (at > this.pos) emit(this.buf.subarray(this.pos, at));
        this.pos = at + delim.byteLength;
        return;
      }
      // Everything but a possible partial delimiter at the end can go out now.
      const safe = this.buf.byteLength - (delim.byteLength - 1);
      if (safe > this.pos) {
        emit(this.buf.subarray(this.pos, safe));
        this.pos = safe;
      }
      if (!(await this.fill())) throw malformed(`unexpected end of body in ${what}`);
    }
  }

  async take(n: number): Promise<Uint8Array> {
    while (this.buf.byteLength - this.pos < n) if (!(await this.fill())) throw malformed("unexpected end of body");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

function parseHeaders(raw: string): PartInfo {
  let disposition = "";
  for (const line of raw.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === "content-disposition")
      disposition = line.slice(colon + 1).trim();
  }
  if (!/^form-data\s*(;|$)/i.test(disposition))
    throw malformed("a part has no `Content-Disposition: form-data` header");
  const params = new Map<string, string>();
  for (const m of disposition.matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    params.set(m[1]!.toLowerCase(), m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]!.trim());
  }
  const name = params.get("name");
  if (!name) throw malformed("a part has no name");
  return { name, fileName: params.get("filename") ?? null };
}

/**
 * Reads `body` part by part. `onPart` is called with each part's headers and returns the sink
 * for its bytes; any error it or a sink throws stops the read (and the caller answers with it).
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
  onPart: (info: PartInfo) => PartSink,
): Promise<void> {
  const reader = body.getReader();
  // The body is read as if it began with CRLF, so the first delimiter looks like every other one.
  const scanner = new Scanner(reader, limits.maxBytes, CRLF);
  const delim = encoder.encode(`\r\n--${boundary}`);
  try {
    let preamble = 0;
    await scanner.until(
      delim,
      (b) => {
        preamble += b.byteLength;
        if (preamble > MAX_PREAMBLE_BYTES) throw malformed("no opening boundary");
      },
      "the preamble",
    );
    for (let parts = 0; ; parts++) {
      const after = decoder.decode(await scanner.take(2));
      if (after === "--") return;
      if (after !== "\r\n") throw malformed("bad boundary line");
      if (parts >= limits.maxParts)
        throw badRequest(`At most ${limits.maxParts} form fields are accepted`, [
          { path: "body", message: `at most ${limits.maxParts} parts` },
        ]);
      const header: Uint8Array[] = [];
      let headerBytes = 0;
      await scanner.until(
        HEADER_END,
        (b) => {
          headerBytes += b.byteLength;
          if (headerBytes > MAX_HEADER_BYTES) throw malformed("part headers too long");
          header.push(b.slice());
        },
        "part headers",
      );
      const sink = onPart(parseHeaders(decoder.decode(concat(header))));
      await scanner.until(delim, (b) => sink.write(b), "a part");
      sink.end();
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
}
