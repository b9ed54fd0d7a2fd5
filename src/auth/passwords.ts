import { base64url, fromBase64url, safeEqual } from "../platform/crypto";

/** The Workers runtime caps PBKDF2 at 100,000 iterations. */
const ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return base64url(new Uint8Array(bits));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${ITERATIONS}$${base64url(salt)}$${await derive(password, salt, ITERATIONS)}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, iter, salt, hash] = (stored ?? "").split("$");
  if (scheme !== "pbkdf2-sha256" || !iter || !salt || !hash) return false;
  return safeEqual(await derive(password, fromBase64url(salt), Number(iter)), hash);
}

/** Password rules shared by every route that sets one. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
