import { describe, expect, it } from "vitest";
import { base64url } from "../../src/platform/crypto";
import { hashPassword, verifyPassword } from "../../src/platform/passwords";

async function hashWith(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return `pbkdf2-sha256$${iterations}$${base64url(salt)}$${base64url(new Uint8Array(bits))}`;
}

describe("password hashes", () => {
  it("record their iteration count, so hashes made at the production 100,000 keep verifying", async () => {
    const production = await hashWith("correct horse battery", 100_000);
    expect(await verifyPassword("correct horse battery", production)).toBe(true);
    expect(await verifyPassword("wrong horse battery", production)).toBe(false);
    const fresh = await hashPassword("correct horse battery");
    expect(fresh).toMatch(/^pbkdf2-sha256\$1000\$/); // the suite's PASSWORD_ITERATIONS
    expect(await verifyPassword("correct horse battery", fresh)).toBe(true);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });
});
