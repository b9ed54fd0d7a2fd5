import { base64url, fromBase64url } from "../../platform/crypto";

const enc = new TextEncoder();
const VERSION = "v1";

/**
 * AES-256-GCM key for SSO secrets at rest, derived with HKDF from SSO_SECRET_KEY (or JWT_SECRET
 * when the operator set none), so the raw secret is never used as a cipher key directly and this
 * key differs from the JWT signing key.
 */
async function keyFrom(material: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", enc.encode(material), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: enc.encode("inventory-sso"), info: enc.encode("sso-client-secret v1") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export const secretKeyMaterial = (env: { SSO_SECRET_KEY?: string; JWT_SECRET: string }) =>
  env.SSO_SECRET_KEY || env.JWT_SECRET;

/** `v1.<iv>.<ciphertext>`; the tenant id is authenticated data, so a value cannot move to another workspace. */
export async function sealSecret(material: string, tenantId: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: enc.encode(tenantId) },
    await keyFrom(material),
    enc.encode(plaintext),
  );
  return `${VERSION}.${base64url(iv)}.${base64url(new Uint8Array(ct))}`;
}

export async function openSecret(material: string, tenantId: string, sealed: string): Promise<string> {
  const [version, iv, ct] = sealed.split(".");
  if (version !== VERSION || !iv || !ct) throw new Error("unknown sealed secret format");
  const pt = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv), additionalData: enc.encode(tenantId) },
    await keyFrom(material),
    fromBase64url(ct),
  );
  return new TextDecoder().decode(pt);
}
