import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/access/rate-limit";
import { createKey } from "../harness/keys";
import { userJwt } from "../harness/principals";
import { type Auth, api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { expectError } from "../security/harness";

/**
 * The local binding counts in windows aligned to the wall clock (60 s): start early in one (waits at
 * most 30 s). The tests run side by side and share the one wait: each has its own workspace and keys,
 * so their counters are apart, and together they take seconds of the 30 left.
 */
let window: Promise<void> | undefined;
function startOfWindow() {
  window ??= (async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 30_000) await new Promise((r) => setTimeout(r, left + 100));
  })();
  return window;
}

/** `n` requests of one credential, 20 at a time; the statuses in order. */
async function burst(t: TestTenant, auth: Auth, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, () => api(t, "/categories/default", { auth })),
    );
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe.concurrent("rate limits per credential and workspace", () => {
  it("requests refused by their credential's limit do not count against the workspace", async () => {
    const t = await createTenant({ plan: "free" });
    const a = await createKey(t, { name: "noisy" });
    const b = await createKey(t, { name: "quiet" });
    await startOfWindow();
    const noisy = await burst(t, { apiKey: a.token }, 320);
    expect(count(noisy, 200)).toBe(RATE_LIMITS.free.credential);
    expect(count(noisy, 429)).toBe(320 - RATE_LIMITS.free.credential);
    // Only 120 were served: the workspace (300) has room for key B.
    expect(await burst(t, { apiKey: b.token }, 10)).toEqual(Array(10).fill(200));
  }, 90_000);

  it("keys that exhaust the workspace budget never lock out the owner's JWT", async () => {
    const t = await createTenant({ plan: "free" });
    const keys = await Promise.all([1, 2, 3].map((i) => createKey(t, { name: `k${i}` })));
    const jwt = await userJwt(t);
    await startOfWindow();
    const statuses = (await Promise.all(keys.map((k) => burst(t, { apiKey: k.token }, 120)))).flat();
    expect(count(statuses, 200)).toBe(RATE_LIMITS.free.workspace);
    const fourth = await api<Failure<{ limit: string }>>(t, "/categories/default");
    expectError(fourth, 429, "rate_limited");
    expect(fourth.body.details.limit).toBe("workspace");
    expect(await burst(t, { jwt }, 10)).toEqual(Array(10).fill(200));
  }, 90_000);

  it("a free-plan key gets 429 with Retry-After and the envelope past its budget; other keys go on", async () => {
    const t = await createTenant({ plan: "free" });
    const { token } = await createKey(t);
    await startOfWindow();
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
