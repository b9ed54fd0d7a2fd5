import { randomToken, sha256Hex } from "./crypto";

/** Every API key starts with this, so a key pasted into `Bearer` is recognised and refused. */
export const API_KEY_PREFIX = "ik_";
const SHOWN_PREFIX_LENGTH = 10;

export async function mintApiKey(): Promise<{ token: string; prefix: string; hash: string }> {
  const token = `${API_KEY_PREFIX}${randomToken(30)}`;
  return { token, prefix: token.slice(0, SHOWN_PREFIX_LENGTH), hash: await sha256Hex(token) };
}

export const looksLikeApiKey = (value: string) => value.startsWith(API_KEY_PREFIX);
