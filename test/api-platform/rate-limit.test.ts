import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Principal } from "../../src/access/principal";
import { credentialKey } from "../../src/access/principal";
import { RATE_LIMITS } from "../../src/access/rate-limit";
import { createKey } from "../harness/keys";
import { userJwt } from "../harness/principals";
import { type Auth, api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { expectError } from "../security/harness";

/**
 * The local binding counts in windows aligned to the wall clock (60 s). A test spends most of a
 * budget through the binding itself (`spend`, the same counters the route uses, keyed as it keys
 * them) and sends only the requests around the edge, which takes a second or two: it starts with at
 * least 15 s of the window left. The tests share that one wait; each has its own workspace and keys,
 * so their counters are apart.
 */
let window: Promise<void> | undefined;
function startOfWindow() {
  window ??= (async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
  })();
  return window;
}

type Level = "credential" | "workspace";
/** Counts `n` requests against a free-plan counter without sending them, keyed as src/access/rate-limit.ts keys it. */
async function spend(t: TestTenant, level: Level, n: number, keyId?: string) {
  const binding = level === "credential" ? env.RATE_LIMIT_KEY_FREE : env.RATE_LIMIT_WORKSPACE_FREE;
  const key =
    level === "credential" ? `${t.id}:${credentialKey({ kind: "apiKey", keyId: keyId! } as Principal)}` : t.id;
  const answers = await Promise.all(Array.from({ length: n }, () => binding.limit({ key })));
  expect(answers.every((a) => a.success)).toBe(true);
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
    const { credential, workspace } = RATE_LIMITS.free;
    await startOfWindow();
    // Key A has 10 requests left, the workspace 20.
    await spend(t, "credential", credential - 10, a.id);
    await spend(t, "workspace", workspace - 20);
    const noisy = await burst(t, { apiKey: a.token }, 40);
    expect(count(noisy, 200)).toBe(10);
    expect(count(noisy, 429)).toBe(30);
    // Only A's 10 served reached the workspace counter: key B gets the other 10, and no more.
    expect(await burst(t, { apiKey: b.token }, 10)).toEqual(Array(10).fill(200));
    const over = await api<Failure<{ limit: string }>>(t, "/categories/default", { auth: { apiKey: b.token } });
    expectError(over, 429, "rate_limited");
    expect(over.body.details.limit).toBe("workspace");
  }, 90_000);

  it("keys that exhaust the workspace budget never lock out the owner's JWT", async () => {
    const t = await createTenant({ plan: "free" });
    const keys = await Promise.all([1, 2, 3].map((i) => createKey(t, { name: `k${i}` })));
    const jwt = await userJwt(t);
    await startOfWindow();
    await spend(t, "workspace", RATE_LIMITS.free.workspace - 20);
    const statuses = (await Promise.all(keys.map((k) => burst(t, { apiKey: k.token }, 20)))).flat();
    expect(count(statuses, 200)).toBe(20);
    const fourth = await api<Failure<{ limit: string }>>(t, "/categories/default");
    expectError(fourth, 429, "rate_limited");
    expect(fourth.body.details.limit).toBe("workspace");
    expect(await burst(t, { jwt }, 10)).toEqual(Array(10).fill(200));
  }, 90_000);

  it("a free-plan key gets 429 with Retry-After and the envelope past its budget; other keys go on", async () => {
    const t = await createTenant({ plan: "free" });
    const { token, id } = await createKey(t);
    await startOfWindow();
    const budget = RATE_LIMITS.free.credential;
    const first = await api(t, "/categories/default", { auth: { apiKey: token } });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(
      `"credential";q=${budget};w=60, "workspace";q=${RATE_LIMITS.free.workspace};w=60`,
    );
    await spend(t, "credential", budget - 20, id);
    const batch = await Promise.all(
      Array.from({ length: 19 }, () => api(t, "/categories/default", { auth: { apiKey: token } })),
    );
    expect(batch.map((r) => r.status)).toEqual(Array(19).fill(200));
    const over = await api<Failure<unknown>>(t, "/categories/default", { auth: { apiKey: token } });
    expectError(over, 429, "rate_limited");
    expect(over.headers.get("retry-after")).toBe("60");
    expect(over.headers.get("ratelimit")).toBe('"credential";r=0;t=60');
    expect(over.body.details).toMatchObject({ limit: "credential", quota: budget, plan: "free" });
    // The workspace's other key has its own budget.
    expect((await api(t, "/categories/default", { auth: { apiKey: t.apiKey } })).status).toBe(200);
  }, 90_000);
});
