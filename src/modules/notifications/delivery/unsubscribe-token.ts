import { base64url, fromBase64url, safeEqual } from "../../../platform/crypto";

const enc = new TextEncoder();

/** What a one-click unsubscribe link stops: one kind for one recipient, or a whole digest (`digest:daily`). */
export interface UnsubscribeClaim {
  recipientId: string;
  kind: string;
}

async function mac(secret: string, tenantId: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(`notification-unsubscribe:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${tenantId}.${payload}`))));
}

/** A signed token for `claim` in one workspace (HMAC-SHA256; no expiry: an old mail's link still works). */
export async function signUnsubscribe(secret: string, tenantId: string, claim: UnsubscribeClaim): Promise<string> {
  const payload = base64url(enc.encode(JSON.stringify({ r: claim.recipientId, k: claim.kind })));
  return `${payload}.${await mac(secret, tenantId, payload)}`;
}

/** The claim of a token signed for this workspace, or null (tampered, another workspace's, malformed). */
export async function verifyUnsubscribe(
  secret: string,
  tenantId: string,
  token: string,
): Promise<UnsubscribeClaim | null> {
  const [payload, sig, extra] = token.split(".");
  if (!payload || !sig || extra !== undefined) return null;
  if (!safeEqual(sig, await mac(secret, tenantId, payload))) return null;
  try {
    const v = JSON.parse(new TextDecoder().decode(fromBase64url(payload))) as { r?: unknown; k?: unknown };
    return typeof v.r === "string" && typeof v.k === "string" ? { recipientId: v.r, kind: v.k } : null;
  } catch {
    return null;
  }
}
