import { describe, expect, it } from "vitest";
import { call, createTenant } from "../harness/tenant";

describe("sign-in throttling", () => {
  it("answers 429 with Retry-After once an address exceeds the sign-in budget, per workspace", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const attempt = (base: string, ip: string) =>
      call(`${base}/auth/login`, {
        body: { email: "nobody@example.com", password: "wrong-password" },
        headers: { "cf-connecting-ip": ip },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await attempt(t.base, "203.0.113.7")).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    const limited = await attempt(t.base, "203.0.113.7");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "rate_limited" });
    expect(limited.headers.get("retry-after")).toBe("60");
    // Another address, and the same address on another workspace, keep their own budgets.
    expect((await attempt(t.base, "203.0.113.8")).status).toBe(401);
    expect((await attempt(other.base, "203.0.113.7")).status).toBe(401);
  });
});
