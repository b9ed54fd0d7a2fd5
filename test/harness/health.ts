import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { assets } from "../../src/db/tenant/assets";
import { assetHealth } from "../../src/db/tenant/health";
import { computeHealth } from "../../src/domain/health-engine/engine";
import { basisOf } from "../../src/domain/health-engine/presets";
import { idsIn, loadSignals } from "../../src/domain/health-engine/signals";
import { findTenantById, settingsOf } from "../../src/tenancy/registry";
import { fetchWith } from "./contract";
import { userJwt } from "./principals";
import type { TestTenant, Untyped } from "./tenant";
import { dbOf } from "./tenant-db";

/**
 * Calls the Worker as `wrangler dev` would run it (ENVIRONMENT=development), so the response
 * carries the D1 counters `x-d1-queries` and `x-d1-round-trips`; waits for after-response work.
 * As the owner, signed in, unless told otherwise: an API key's check also writes its last-used
 * minute once a minute, so a count taken across a minute came out one statement more (a clock,
 * not the route).
 */
export async function devCall<T = Untyped>(
  t: TestTenant,
  path: string,
  init: { method?: string; body?: unknown; authorization?: string } = {},
) {
  const ctx = createExecutionContext();
  const req = new Request(`${t.base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { authorization: init.authorization ?? `Bearer ${await userJwt(t)}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await fetchWith(req, { ...env, ENVIRONMENT: "development" }, ctx);
  const body = (await res.json()) as T; // the route's response type, named by the caller
  await waitOnExecutionContext(ctx);
  return {
    status: res.status,
    body,
    queries: Number(res.headers.get("x-d1-queries")),
    roundTrips: Number(res.headers.get("x-d1-round-trips")),
  };
}

/** The tenant's health basis as stored in the registry now. */
export async function basisOfTenant(t: TestTenant) {
  const rec = await findTenantById(env, t.id);
  return basisOf(rec ? settingsOf(rec) : {});
}

/** The stored health row of an asset (undefined when none). */
export async function storedHealth(t: TestTenant, assetId: string) {
  return (await dbOf(t)).select().from(assetHealth).where(eq(assetHealth.assetId, assetId)).get();
}

/** A fresh computation from the current data (what the stored row must equal). */
export async function freshHealth(t: TestTenant, assetId: string, now = new Date()) {
  const [loaded] = await loadSignals(await dbOf(t), idsIn(assets.id, [assetId]));
  if (!loaded) throw new Error(`asset ${assetId} is not live`);
  const basis = await basisOfTenant(t);
  return computeHealth(loaded.signals, basis.sensitivity, now, basis.timeZone);
}

/** Asserts-friendly view: the stored row is clean and equals a fresh computation. */
export async function storedVsFresh(t: TestTenant, assetId: string) {
  const row = await storedHealth(t, assetId);
  const fresh = await freshHealth(t, assetId);
  return {
    stored: row
      ? { dirty: row.dirty, score: row.score, badge: row.badge, reasons: row.reasons, validUntil: row.validUntil }
      : null,
    fresh: {
      dirty: false,
      score: fresh.score,
      badge: fresh.badge,
      reasons: fresh.reasons,
      validUntil: fresh.validUntil,
    },
  };
}
