import { base64url, fromBase64url } from "./crypto";
import { ApiError } from "./errors";

/**
 * Worker-signed file URLs (docs/files.md): the Worker, not R2, signs and checks them, so the same
 * URLs work under `wrangler dev` and in production and the Worker enforces what was signed.
 *
 * The signature is HMAC-SHA256 (key FILES_SIGNING_SECRET) over a versioned canonical string of
 * every field the URL grants: method, object key, expiry, and for uploads the declared content
 * type, exact size and purpose. Changing any query value, or using an upload URL to read, breaks
 * the signature. The object key is tenant-scoped (`tenants/<tenantId>/...`), so a URL never
 * grants anything outside the tenant it was issued for.
 */
export interface SignedFields {
  method: "GET" | "PUT";
  key: string;
  /** Expiry, Unix seconds. */
  exp: number;
  contentType?: string;
  size?: number;
  purpose?: string;
}

const encoder = new TextEncoder();

const canonical = (f: SignedFields) =>
  [
    "files-v1",
    f.method,
    f.key,
    String(f.exp),
    f.contentType ?? "",
    f.size === undefined ? "" : String(f.size),
    f.purpose ?? "",
  ].join("\n");

async function hmacKey(secret: string): Promise<CryptoKey> {
  // A missing secret would make every URL forgeable: refuse instead of signing with "".
  if (!secret) throw new ApiError("service_unavailable", "File URLs are not configured (FILES_SIGNING_SECRET)");
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

export async function signFields(secret: string, fields: SignedFields): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(canonical(fields)));
  return base64url(new Uint8Array(mac));
}

/** Constant-time check (WebCrypto `verify`); a malformed signature is simply invalid. */
export async function verifyFields(secret: string, fields: SignedFields, signature: string): Promise<boolean> {
  // Exact bytes: 32 bytes are 43 base64url characters, nothing around them (a trailing space or
  // padding is a different signature, not a lenient spelling of this one).
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
  let mac: Uint8Array;
  try {
    mac = fromBase64url(signature);
  } catch {
    return false;
  }
  if (mac.byteLength !== 32) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(secret), mac, encoder.encode(canonical(fields)));
}

const forbidden = (reason: "invalid_signature" | "expired", message: string) =>
  new ApiError("forbidden", message, { details: { reason } });

/**
 * Checks a presented URL: 403 `forbidden` with `details.reason` `invalid_signature` (missing or
 * altered parameters) or `expired`. The signature is checked first, so an altered `exp` is
 * reported as tampering, never as "expired".
 */
export async function assertSignedUrl(
  secret: string,
  fields: SignedFields,
  signature: string | undefined,
  now = Date.now(),
) {
  if (!signature || !Number.isSafeInteger(fields.exp) || !(await verifyFields(secret, fields, signature))) {
    throw forbidden("invalid_signature", "The signed URL is invalid: its signature does not match its parameters");
  }
  if (fields.exp * 1000 <= now) throw forbidden("expired", "The signed URL has expired: request a new one");
}

/** `exp` for a URL valid `ttlSeconds` from now. */
export const expiryIn = (ttlSeconds: number, now = Date.now()) => Math.floor(now / 1000) + ttlSeconds;
