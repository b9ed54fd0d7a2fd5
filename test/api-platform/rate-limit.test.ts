import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/auth/rate-limit";
import { api, createTenant, type Failure } from "../harness/tenant";
import { expectError } from "../security/harness";
import { createKey } from "./keys";

describe("rate limits per credential and workspace", () => {
  it("a free-plan key gets 429 with Retry-After and the envelope past its budget; other keys go on", async () => {
    const t = await createTenant({ plan: "free" });
    const { token } = await createKey(t);
    // The local binding counts in windows aligned to the wall clock (60 s): a run that crossed into the
    // next window would start a fresh count. Start early in a window (waits at most 30 s).
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 30_000) await new Promise((r) => setTimeout(r, left + 100));
    const budget = RATE_LIMITS.free.credential;
    const first = await api(t, "/categories/default", { auth: { apiKey: token } });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(
      `"credential";q=${budget};w=60, "workspace";q=${RATE_LIMITS.free.workspace};w=60`,
    );
    for (let i = 1; i < budget; i += 20) {
      const n = Math.min(20, budget - i);
      const batch = await Promise.all(
        Array.from({ length: n }, () => api(t, "/categories/default", { auth: { apiKey: token } })),
      );
      expect(batch.map((r) => r.status)).toEqual(Array(n).fill(200));
    }
    const over = await api<Failure<unknown>>(t, "/categories/default", { auth: { apiKey: token } });
    expectError(over, 429, "rate_limited");
    expect(over.headers.get("retry-after")).toBe("60");
    expect(over.headers.get("ratelimit")).toBe('"credential";r=0;t=60');
    expect(over.body.details).toMatchObject({ limit: "credential", quota: budget, plan: "free" });
    // The workspace's other key has its own budget.
    expect((await api(t, "/categories/default", { auth: { apiKey: t.apiKey } })).status).toBe(200);
  }, 90_000);
});
