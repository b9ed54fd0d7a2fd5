import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { chunk } from "../../platform/d1";
import { computeHealth } from "./engine";
import type { HealthBasis } from "./presets";
import { idsIn, loadSignals } from "./signals";
import {
  type Computed,
  isCurrent,
  liveAmong,
  type StoredHealth,
  staleQueries,
  storedQuery,
  toStored,
  writeResults,
} from "./store";

/** Assets re-scored per read-compute-write round (one statement each way, whatever the count). */
export const ROUND = 200;

/**
 * Re-scores `ids` from a fresh snapshot and stores the results (compare-and-set on the version
 * read with the snapshot). Two D1 round trips per ROUND ids. Returns the results of the live
 * assets among them; rows of assets that are gone are removed.
 */
export async function refreshHealth(
  db: TenantDb,
  ids: readonly string[],
  basis: HealthBasis,
  now = new Date(),
): Promise<Map<string, StoredHealth>> {
  const out = new Map<string, StoredHealth>();
  const computedAt = now.toISOString();
  for (const part of chunk([...new Set(ids)], ROUND)) {
    const loaded = await loadSignals(db, idsIn(assets.id, part));
    const rows: Computed[] = loaded.map((l) => ({
      id: l.signals.assetId,
      version: l.version,
      result: computeHealth(l.signals, basis.sensitivity, now, basis.timeZone),
    }));
    const live = new Set(rows.map((r) => r.id));
    await writeResults(
      db,
      rows,
      part.filter((id) => !live.has(id)),
      basis,
      computedAt,
    );
    for (const r of rows) out.set(r.id, toStored({ ...r.result, computedAt }));
  }
  return out;
}

/**
 * The health of the live assets among `ids`, in one statement when every stored row is current;
 * rows that are stale, missing, expired or of another basis are re-scored on the spot (read
 * repair), so single and batch reads are always exact. Unknown and deleted ids are left out (they
 * have no stored row; one more statement tells a live asset without a row from an unknown id).
 */
export async function healthOf(
  db: TenantDb,
  ids: readonly string[],
  basis: HealthBasis,
  now = new Date(),
): Promise<Map<string, StoredHealth>> {
  const nowIso = now.toISOString();
  const rows = (await Promise.all(chunk(ids, 1000).map((part) => storedQuery(db, part).all()))).flat();
  const out = new Map<string, StoredHealth>();
  const repair: string[] = [];
  for (const r of rows) {
    const id = r.assetId;
    if (isCurrent(r, basis, nowIso)) out.set(id, toStored(r));
    else repair.push(id);
  }
  const found = new Set(rows.map((r) => r.assetId));
  const missing = [...new Set(ids.filter((id) => !found.has(id)))];
  for (const part of chunk(missing, 1000)) repair.push(...(await liveAmong(db, part).all()).map((r) => r.id));
  if (repair.length) for (const [id, h] of await refreshHealth(db, repair, basis, now)) out.set(id, h);
  return out;
}

export interface DrainOptions {
  /** Stop after about this many rows. */
  maxRows?: number;
  /** Stop when this much wall time has passed (ms). */
  budgetMs?: number;
  /** The time to score at (default: the clock at each round). */
  now?: Date;
}

/**
 * Re-scores the tenant's stale rows (marked, other basis, expired) in rounds until none is left or
 * a bound is reached. Safe to run concurrently and repeatedly: every write is compare-and-set.
 */
export async function drainHealth(
  db: TenantDb,
  basis: HealthBasis,
  opts: DrainOptions = {},
): Promise<{ rescored: number; done: boolean }> {
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  const maxRows = opts.maxRows ?? Number.MAX_SAFE_INTEGER;
  let rescored = 0;
  // At least one round per call, so a caller on a tight budget still makes progress.
  for (let round = 0; round === 0 || (rescored < maxRows && Date.now() < deadline); round++) {
    const now = opts.now ?? new Date();
    const found = await db.batch(staleQueries(db, basis, now.toISOString(), Math.min(ROUND, maxRows - rescored)));
    const ids = [...new Set(found.flat().map((r) => r.id))];
    if (ids.length === 0) return { rescored, done: true };
    await refreshHealth(db, ids, basis, now);
    rescored += ids.length;
    // A macrotask between rounds: a long background drain must not hold the isolate from other requests.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { rescored, done: false };
}
