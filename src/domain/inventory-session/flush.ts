import type { Bindings } from "../../env";
import { rawTenantDb } from "../../tenancy/pool";
import { findTenantHere } from "../../tenancy/registry";
import { HEALTH_STALE_JSON_SQL, healthCtxFromD1, settleHealth } from "../health-engine";
import type { SessionMeta, SessionStore } from "./session-store";

/** Scan records per D1 batch. Rows travel as one JSON parameter each statement, so the 100-parameter cap never binds. */
export const FLUSH_ROUND = 100;

type DirtyScan = {
  id: string;
  client_scan_id: string | null;
  asset_id: string | null;
  code: string | null;
  result: string;
  reason: string | null;
  scanned_at: string;
  received_at: string;
  scanned_by: string;
  expected_location_id: string | null;
  wrong_location: number;
  marked_anyway: number;
  rescan: number;
  condition: string | null;
  comment: string | null;
  photo_keys: string;
  unscanned_at: string | null;
  unscanned_by: string | null;
  superseded_by: string | null;
  dirty: number;
};

/*
 * One atomic D1 batch writes a round of changes through: scan_events (upsert: unscan and rescan
 * change rows already written), session_items (upsert of the current item state), the asset's
 * last_verified_at (only ever moved forward, so replays in any order are harmless), a VERIFIED
 * timeline row per accepted scan (id derived from the scan id: a retried flush inserts nothing
 * twice) and the session's progress counts. Every statement is idempotent, so a flush that dies
 * after D1 committed but before the object cleared its dirty marks just writes the same again.
 */
const UPSERT_SCAN_EVENTS = `
INSERT INTO scan_events (id, session_id, session_name, asset_id, code, result, reason, client_scan_id, scanned_at, received_at, scanned_by,
  location_id, expected_location_id, wrong_location, marked_anyway, rescan, condition, comment, photo_keys, unscanned_at, unscanned_by, superseded_by)
SELECT v ->> '$.id', ?1, ?2, v ->> '$.asset_id', v ->> '$.code', v ->> '$.result', v ->> '$.reason', v ->> '$.client_scan_id', v ->> '$.scanned_at',
  v ->> '$.received_at', v ->> '$.scanned_by', ?3, v ->> '$.expected_location_id', v ->> '$.wrong_location', v ->> '$.marked_anyway', v ->> '$.rescan',
  v ->> '$.condition', v ->> '$.comment', v ->> '$.photo_keys', v ->> '$.unscanned_at', v ->> '$.unscanned_by', v ->> '$.superseded_by'
FROM (SELECT value AS v FROM json_each(?4)) WHERE true
ON CONFLICT (id) DO UPDATE SET unscanned_at = excluded.unscanned_at, unscanned_by = excluded.unscanned_by, superseded_by = excluded.superseded_by`;

const UPSERT_ITEMS = `
INSERT INTO session_items (session_id, asset_id, name, unique_tag, location_id, category_id, source, excluded, wrong_location, scan_id, scanned_at, scanned_by, condition, updated_at)
SELECT ?1, v ->> '$.asset_id', v ->> '$.name', v ->> '$.unique_tag', v ->> '$.location_id', v ->> '$.category_id', v ->> '$.source', v ->> '$.excluded',
  v ->> '$.wrong_location', v ->> '$.scan_id', v ->> '$.scanned_at', v ->> '$.scanned_by', v ->> '$.condition', ?2
FROM (SELECT value AS v FROM json_each(?3)) WHERE true
ON CONFLICT (session_id, asset_id) DO UPDATE SET source = excluded.source, excluded = excluded.excluded, wrong_location = excluded.wrong_location,
  scan_id = excluded.scan_id, scanned_at = excluded.scanned_at, scanned_by = excluded.scanned_by, condition = excluded.condition, updated_at = excluded.updated_at`;

const VERIFY_ASSETS = `
UPDATE assets SET last_verified_at = v.at
FROM (SELECT value ->> '$.id' AS id, value ->> '$.at' AS at FROM json_each(?1)) AS v
WHERE assets.id = v.id AND (assets.last_verified_at IS NULL OR assets.last_verified_at < v.at)`;

const TIMELINE_VERIFIED = `
INSERT INTO asset_timeline (id, asset_id, type, at, actor, data)
SELECT 'tle_' || substr(v ->> '$.id', 5), v ->> '$.asset_id', 'VERIFIED', v ->> '$.scanned_at', v ->> '$.scanned_by',
  json_object('sessionId', ?1, 'sessionName', ?2, 'scanId', v ->> '$.id', 'condition', v ->> '$.condition', 'comment', v ->> '$.comment',
    'wrongLocation', json(CASE WHEN v ->> '$.wrong_location' = 1 THEN 'true' ELSE 'false' END), 'rescan', json(CASE WHEN v ->> '$.rescan' = 1 THEN 'true' ELSE 'false' END))
FROM (SELECT value AS v FROM json_each(?3)) WHERE true
ON CONFLICT (id) DO NOTHING`;

/**
 * Writes the object's dirty rows through in up to `maxRounds` rounds: "done" when nothing dirty is
 * left, "more" when the rounds ran out first. A workspace deleted (or being deleted) gets nothing
 * written: its pool database is being wiped, or already serves the next workspace that claimed it,
 * and scans written through late (the alarm fires after the scans) would land among that
 * workspace's rows.
 *
 * Nor is anything written into a database the registry does not name for the workspace on this
 * shard: that is a move's switch (docs/deploying.md#moving-a-workspace-between-shards). The old
 * shard's object handed its state over in the snapshot, and the move destroys it; the new shard's
 * copy waits for the registry to name it. Both throw, so the rows stay dirty and the alarm retries
 * with its back-off, instead of writing into a binding that may be another workspace's.
 */
export async function writeThrough(
  env: Bindings,
  store: SessionStore,
  sql: SqlStorage,
  maxRounds: number,
): Promise<"done" | "more"> {
  const meta = store.meta()!;
  const tenant = await findTenantHere(env, meta.tenantId);
  if (!tenant || tenant.status === "deleting") return "done";
  if (tenant.dbBinding !== meta.dbBinding)
    throw new Error(`workspace ${tenant.id} is served from ${tenant.dbBinding} now, not from ${meta.dbBinding}`);
  const d1 = rawTenantDb(env, meta.dbBinding);
  for (let round = 0; round < maxRounds; round++)
    if ((await flushRound(store, sql, d1, store.meta()!)) === 0) return "done";
  return "more";
}

/** Writes one round of dirty rows to D1; returns how many rows it wrote (0 = nothing was dirty). */
async function flushRound(store: SessionStore, sql: SqlStorage, d1: D1Database, meta: SessionMeta): Promise<number> {
  const upTo = store.currentSeq();
  // Rows changed by one scan share a sequence number: cut the round at a sequence boundary.
  const cut = sql
    .exec<{ dirty: number }>(
      `SELECT dirty FROM scans WHERE dirty > 0 AND dirty <= ? ORDER BY dirty LIMIT 1 OFFSET ?`,
      upTo,
      FLUSH_ROUND - 1,
    )
    .toArray()[0];
  const bound = cut?.dirty ?? upTo;
  const scans = sql
    .exec<DirtyScan>(`SELECT * FROM scans WHERE dirty > 0 AND dirty <= ? ORDER BY dirty`, bound)
    .toArray();
  const items = sql.exec(`SELECT * FROM items WHERE dirty > 0 AND dirty <= ?`, bound).toArray();
  if (scans.length === 0 && items.length === 0) return 0;

  const verified = scans.filter((s) => s.result === "accepted" && s.unscanned_at === null && s.asset_id);
  const latest = new Map<string, string>();
  for (const s of verified) if ((latest.get(s.asset_id!) ?? "") < s.scanned_at) latest.set(s.asset_id!, s.scanned_at);
  const progress = store.progress();
  const now = new Date().toISOString();

  const statements: D1PreparedStatement[] = [];
  if (scans.length)
    statements.push(
      d1
        .prepare(UPSERT_SCAN_EVENTS)
        .bind(meta.sessionId, meta.name, meta.location?.id ?? null, JSON.stringify(scans.map(scanJson))),
    );
  if (items.length) statements.push(d1.prepare(UPSERT_ITEMS).bind(meta.sessionId, now, JSON.stringify(items)));
  const verifiedJson = JSON.stringify([...latest].map(([id, at]) => ({ id, at })));
  if (latest.size)
    statements.push(d1.prepare(VERIFY_ASSETS).bind(verifiedJson), d1.prepare(HEALTH_STALE_JSON_SQL).bind(verifiedJson));
  if (verified.length)
    statements.push(
      d1.prepare(TIMELINE_VERIFIED).bind(meta.sessionId, meta.name, JSON.stringify(verified.map(scanJson))),
    );
  statements.push(
    d1
      .prepare(`UPDATE sessions SET expected_count = ?, scanned_count = ? WHERE id = ?`)
      .bind(progress.total, progress.scanned, meta.sessionId),
  );
  await d1.batch(statements);

  // Only what this round wrote: rows changed while D1 was awaited carry a later sequence number.
  sql.exec(`UPDATE scans SET dirty = 0 WHERE dirty > 0 AND dirty <= ?`, bound);
  sql.exec(`UPDATE items SET dirty = 0 WHERE dirty > 0 AND dirty <= ?`, bound);
  // A verification changes the asset's health: marked stale in the batch above, re-scored now (never throws).
  if (latest.size) await settleHealth(healthCtxFromD1(d1, meta.tenantId), [...latest.keys()]);
  return scans.length + items.length;
}

function scanJson(s: DirtyScan) {
  return { ...s, photo_keys: s.photo_keys, dirty: undefined };
}
