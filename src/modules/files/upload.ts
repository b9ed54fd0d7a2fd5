import { ApiError, badRequest, conflict } from "../../platform/errors";
import { describeTypes, type FileType, SNIFF_BYTES, sniff } from "./file-types";

export interface UploadTarget {
  key: string;
  contentType: FileType;
  /** Exact size the URL was issued for, in bytes. */
  size: number;
  purpose?: string;
}

const tooLarge = (size: number) =>
  new ApiError("payload_too_large", `The body is larger than the ${size} bytes this upload URL was issued for`);
const tooShort = (got: number, size: number) =>
  badRequest(`The body has ${got} bytes; this upload URL was issued for exactly ${size} bytes`, [
    { path: "body", message: `expected ${size} bytes, got ${got}` },
  ]);

/**
 * Streams a signed upload into R2 without buffering it: Content-Length (when sent) is checked
 * first, then the first bytes are sniffed against the declared type, then every chunk is counted
 * on its way into a FixedLengthStream of the declared size (R2 needs a known length). A body that
 * runs past the size is cut off at once (413); one that ends short fails the put (400). R2 puts
 * are atomic, so a refused upload leaves no object behind.
 */
export async function streamUpload(
  bucket: R2Bucket,
  target: UploadTarget,
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | undefined,
) {
  if (contentLength !== undefined) {
    const declared = Number(contentLength);
    if (Number.isSafeInteger(declared) && declared > target.size) throw tooLarge(target.size);
    if (Number.isSafeInteger(declared) && declared < target.size) throw tooShort(declared, target.size);
  }
  // Single use: an issued key is written once (a re-sent URL cannot replace what was reviewed).
  if (await bucket.head(target.key)) throw conflict("This upload URL has already been used: request a new one");
  if (!body) throw tooShort(0, target.size);

  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let count = 0;
  let done = false;
  while (count < SNIFF_BYTES && !done) {
    const r = await reader.read();
    if (r.done) done = true;
    else if (r.value.byteLength > 0) {
      head.push(r.value);
      count += r.value.byteLength;
    }
  }
  if (count > target.size) throw abort(reader, tooLarge(target.size));
  const first = concat(head);
  if (sniff(first) !== target.contentType) {
    throw abort(
      reader,
      new ApiError(
        "unsupported_media_type",
        `The file's content is not ${describeTypes([target.contentType])} (checked by its first bytes); the URL was issued for ${target.contentType}`,
      ),
    );
  }

  const fixed = new FixedLengthStream(target.size);
  const put = bucket.put(target.key, fixed.readable, {
    httpMetadata: { contentType: target.contentType },
    customMetadata: target.purpose ? { purpose: target.purpose } : {},
  });
  // The put fails when we abort the writer below; that failure is reported as our own error.
  put.catch(() => undefined);
  const writer = fixed.writable.getWriter();
  writer.closed.catch(() => undefined);
  let refusal: ApiError | null = null;
  try {
    await writer.write(first);
    while (!done) {
      const r = await reader.read();
      if (r.done) break;
      count += r.value.byteLength;
      if (count > target.size) {
        refusal = tooLarge(target.size);
        break;
      }
      await writer.write(r.value);
    }
    if (!refusal && count < target.size) refusal = tooShort(count, target.size);
  } catch (err) {
    refusal = new ApiError(
      "validation_failed",
      `The upload could not be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (refusal) {
    await writer.abort(refusal).catch(() => undefined);
    throw abort(reader, refusal);
  }
  await writer.close();
  const stored = await put;
  return { objectKey: target.key, contentType: target.contentType, size: stored.size, etag: stored.httpEtag };
}

function abort(reader: ReadableStreamDefaultReader<Uint8Array>, err: ApiError): ApiError {
  reader.cancel(err.message).catch(() => undefined);
  return err;
}

export function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
