/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` + base64
 * of random bytes; each signature is `v1,` + base64 of HMAC-SHA256 over `${id}.${timestamp}.${body}`
 * keyed with the decoded bytes; several signatures go space-separated in `webhook-signature`, which
 * is how a rotated secret and its predecessor both sign during the overlap.
 */

const SECRET_PREFIX = "whsec_";
/** 32 random bytes: inside the 24..64 the spec's libraries accept. */
const SECRET_BYTES = 32;
/** How much of a secret the API shows after creation (`whsec_` + 4 characters). */
export const VISIBLE_SECRET_CHARS = SECRET_PREFIX.length + 4;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function newSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

export const secretPrefix = (secret: string) => secret.slice(0, VISIBLE_SECRET_CHARS);

async function signOne(secret: string, signedContent: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.slice(SECRET_PREFIX.length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(signedContent));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** The three Standard Webhooks headers for `body`, signed with every secret in `secrets`. */
export async function signDelivery(
  secrets: readonly string[],
  id: string,
  body: string,
  at: Date,
): Promise<SignedHeaders> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = await Promise.all(secrets.map((s) => signOne(s, `${id}.${timestamp}.${body}`)));
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}

/** The secrets that sign at `at`: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  e: { secret: string; previousSecret: string | null; previousSecretExpiresAt: string | null },
  at: Date,
): string[] {
  const overlap = e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > at.toISOString();
  return overlap ? [e.secret, e.previousSecret!] : [e.secret];
}
