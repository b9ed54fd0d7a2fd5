import { env } from "cloudflare:workers";
import { base64url, fromBase64url, safeEqual } from "./crypto";

/**
 * PBKDF2 work factor for new hashes: the Workers runtime's cap of 100,000 unless
 * PASSWORD_ITERATIONS lowers it (the test suite does, to keep its thousands of sign-ins cheap).
 * Each hash records its own count, so hashes made under either setting keep verifying.
 */
const MAX_ITERATIONS = 100_000;
const configured = Number(env.PASSWORD_ITERATIONS);
const ITERATIONS =
  Number.isInteger(configured) && configured >= 1_000 && configured <= MAX_ITERATIONS ? configured : MAX_ITERATIONS;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return base64url(new Uint8Array(bits));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${ITERATIONS}$${base64url(salt)}$${await derive(password, salt, ITERATIONS)}`;
}

/** Verified against when no user matches, so a miss costs what a wrong password costs. */
export const TIMING_DUMMY_HASH = `pbkdf2-sha256$${ITERATIONS}$c2FsdHNhbHRzYWx0c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, iter, salt, hash] = (stored ?? "").split("$");
  if (scheme !== "pbkdf2-sha256" || !iter || !salt || !hash) return false;
  return safeEqual(await derive(password, fromBase64url(salt), Number(iter)), hash);
}

/** Password rules shared by every route that sets one. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
