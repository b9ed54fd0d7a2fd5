import { readdirSync, readFileSync } from "node:fs";
import { GEAR } from "./bookings-seed.mjs";
import { FIRST, LAST, PRODUCTS } from "./search-seed.mjs";

// Generated seed data for bench/scale.mjs: one workspace of `assets` assets with everything the
// routes read, as SQL that SQLite expands itself (recursive CTEs, as bench/licences-seed.mjs does),
// so a million assets cost a few kilobytes of SQL instead of several hundred megabytes. The shape is
// a function of the asset number i only, so a 100,000-asset and a 1,000,000-asset workspace hold the
// same mix:
// - people: one per 50 assets, named from search-seed's first and last names;
// - assets: search-seed's product catalogue (one name in five has "Laptop"), bookings-seed's gear
//   (Camera, Lens, Tripod, Microphone) for the bookable 30% (i % 10 < 3, category "Cameras"; the
//   catalogue goes by i / 10 so every product is among the other 70%),
//   tags AST-0000000.., serials, spread over the categories and locations; 10% checked out to a
//   person (due dates 20 days back to 20 ahead, an open assignment each), 2% lost, 2.5% retired,
//   1% in maintenance, 5% requestable; purchase dates and costs, warranties, verifications; ids,
//   creation times and rowids in i order (ids sort as the service's time-ordered ids do, and rows are
//   written in that order, as the API writes them: the text search's windows rely on it for speed,
//   never for results; the joins below would otherwise scatter the rowids), updates spread
//   over 400 days. The FTS5 and rollup triggers of the migrations run on every row, as production
//   writes run them;
// - a stored health row per asset (scores 0-100, badges from them), status events for the lost and
//   retired ones;
// - bookings: three per gear asset, one returned 60 days back, one in the next month (one in ten
//   cancelled), one two months ahead, each with its booking_items row (bookings-seed's rules:
//   `active` while it holds the asset, windows of one asset never overlap);
// - maintenance: a schedule on one asset in five (due 60 days back to 60 ahead), two logs on one in three;
// - sessions: twelve completed monthly audits over the first 20,000 assets (the same at every size:
//   an audit is of a site, not of the whole estate) with their report and last-audit rows, and 200
//   draft sessions for search.

const nums = (n) => `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
const pad = (prefix, expr) => `'${prefix}_' || printf('%026d', ${expr})`;
const q = (v) => `'${String(v).replace(/'/g, "''")}'`;
const values = (rows) =>
  `VALUES ${rows.map((r) => `(${r.map((v) => (typeof v === "number" ? v : q(v))).join(", ")})`).join(", ")}`;

/** The id of asset `i`, person `i`: what the benchmark uses to name one (e.g. an assignee). */
export const assetId = (i) => `ast_${String(i).padStart(26, "0")}`;
export const personId = (i) => `per_${String(i).padStart(26, "0")}`;
export const peopleFor = (assets) => Math.max(100, Math.floor(assets / 50));
/** Asset i is checked out to person (i * 7) % people when i % 10 = 5. */
export const holderOf = (i, assets) => (i % 10 === 5 ? (i * 7) % peopleFor(assets) : null);

/**
 * The statements, one per line of the file (each a single INSERT or UPDATE). `categoryIds`: the
 * categories the non-gear assets spread over; `gearCategoryId`; `locationIds`; `now`: ISO instant
 * every date is relative to.
 */
export function seedSql({ assets: n, categoryIds, gearCategoryId, locationIds, now = new Date().toISOString() }) {
  const people = peopleFor(n);
  const at = (modifier) => `strftime('%Y-%m-%dT%H:%M:%fZ', '${now}', ${modifier})`;
  const days = (expr) => at(`printf('%+d days', ${expr})`);
  const secs = (expr) => at(`printf('%+d seconds', ${expr})`);
  const date = (expr) => `date('${now}', printf('%+d days', ${expr}))`;
  const created = secs(`-(${n} - i) * ${Math.max(1, Math.floor((700 * 86_400) / n))}`);
  const cats = values(categoryIds.map((id, k) => [k, id]));
  const locs = values(locationIds.map((id, k) => [k, id]));
  const prods = values(PRODUCTS.map(([kind, brand, model], k) => [k, kind, brand, model]));
  const gear = values(GEAR.map(([kind, brand, model], k) => [k, kind, brand, model]));
  const first = values(FIRST.map((v, k) => [k, v]));
  const last = values(LAST.map((v, k) => [k, v]));
  const statements = [
    `${nums(people)}, f(k, v) AS (${first}), l(k, v) AS (${last})
     INSERT INTO people (id, name, email, employee_number, department, status, created_at, updated_at)
     SELECT ${pad("per", "i")}, f.v || ' ' || l.v || ' ' || i, lower(f.v || '.' || l.v || '.' || i || '@example.com'),
       'E-' || (10000 + i), 'Dept ' || (i % 12), 'active', '${now}', '${now}'
     FROM n JOIN f ON f.k = i % ${FIRST.length} JOIN l ON l.k = (i / ${FIRST.length}) % ${LAST.length}`,
    `${nums(n)}, c(k, id) AS (${cats}), lo(k, id) AS (${locs}), p(k, kind, brand, model) AS (${prods}), g(k, kind, brand, model) AS (${gear})
     INSERT INTO assets (id, name, unique_tag, serial_number, model, manufacturer, category_id, location_id, status,
       assignee_id, assigned_at, due_back_at, holder_kind, holder_id, holder_name, requestable,
       purchase_date, purchase_cost_minor, currency, warranty_expires_at, last_verified_at, created_at, updated_at)
     SELECT ${pad("ast", "i")}, coalesce(g.kind, p.kind) || ' ' || coalesce(g.brand, p.brand) || ' ' || coalesce(g.model, p.model) || ' #' || i,
       'AST-' || printf('%07d', i), printf('SN%010X', (i * 2654435761) % 1099511627776), coalesce(g.model, p.model), coalesce(g.brand, p.brand),
       CASE WHEN i % 10 < 3 THEN '${gearCategoryId}' ELSE c.id END, lo.id,
       CASE WHEN i % 10 = 5 THEN 'assigned' WHEN i % 50 = 7 THEN 'lost' WHEN i % 40 = 9 THEN 'retired' WHEN i % 100 = 4 THEN 'maintenance' ELSE 'available' END,
       pe.id, CASE WHEN pe.id IS NOT NULL THEN ${days("-(i % 400) - 21")} END, CASE WHEN pe.id IS NOT NULL THEN ${days("(i * 31) % 40 - 20")} END,
       CASE WHEN pe.id IS NOT NULL THEN 'person' END, pe.id, pe.name, i % 20 = 11,
       CASE WHEN i % 10 < 7 THEN ${date("-((i * 37) % 2200)")} END, CASE WHEN i % 10 < 7 THEN 10000 + (i * 7919) % 200000 END,
       CASE WHEN i % 10 < 7 THEN CASE WHEN i % 3 = 0 THEN 'USD' ELSE 'EUR' END END,
       CASE WHEN i % 2 = 0 THEN ${date("(i * 13) % 1000 - 300")} END, CASE WHEN i % 5 < 3 THEN ${days("-((i * 7) % 400)")} END,
       ${created}, ${secs(`-((i * 7919) % ${400 * 86_400})`)}
     FROM n JOIN c ON c.k = i % ${categoryIds.length} JOIN lo ON lo.k = (i / 7) % ${locationIds.length}
       JOIN p ON p.k = (i / 10) % ${PRODUCTS.length} LEFT JOIN g ON i % 10 < 3 AND g.k = i % ${GEAR.length}
       LEFT JOIN people pe ON i % 10 = 5 AND pe.id = ${pad("per", `(i * 7) % ${people}`)}
     ORDER BY i`,
    `INSERT INTO assignments (id, asset_id, person_id, person_name, checked_out_at, checked_out_by, due_back_at)
     SELECT 'asg' || substr(id, 4), id, assignee_id, holder_name, assigned_at, 'usr_bench', due_back_at FROM assets WHERE assignee_id IS NOT NULL`,
    `INSERT INTO asset_health (asset_id, score, badge, reasons, basis, computed_at, valid_until, dirty, version)
     SELECT id, (rowid * 37) % 101, CASE WHEN (rowid * 37) % 101 < 40 THEN 'AT_RISK' WHEN (rowid * 37) % 101 < 70 THEN 'ATTENTION' ELSE 'HEALTHY' END,
       '[]', 'balanced|UTC', ${at("'-1 hours'")}, NULL, 0, 1 FROM assets`,
    `INSERT INTO asset_status_events (id, asset_id, from_status, to_status, reason, actor, at)
     SELECT 'ase' || substr(id, 4), id, 'available', status, CASE WHEN status = 'retired' THEN 'end of life' END, 'bench', ${days("-(rowid % 360)")}
     FROM assets WHERE status IN ('lost', 'retired')`,
    // Booking k of gear asset i: k = 0 returned, 1 in the next month, 2 two months ahead.
    `${nums(n)}, k(k) AS (VALUES (0), (1), (2)), w AS (
       SELECT i, k, ${days("(k - 1) * 60 + i % 30")} AS s, ${days("(k - 1) * 60 + i % 30 + 1 + i % 5")} AS e,
         CASE WHEN k = 0 THEN 'returned' WHEN k = 1 AND i % 100 < 10 THEN 'cancelled' ELSE 'reserved' END AS st
       FROM n JOIN k WHERE i % 10 < 3)
     INSERT INTO bookings (id, person_id, status, starts_at, ends_at, created_by, created_at, updated_at, picked_up_at, returned_at, cancelled_at)
     SELECT ${pad("bkg", "i * 3 + k")}, ${pad("per", `(i * 11 + k) % ${people}`)}, st, s, e, 'usr_bench', '${now}', '${now}',
       CASE WHEN st = 'returned' THEN s END, CASE WHEN st = 'returned' THEN e END, CASE WHEN st = 'cancelled' THEN '${now}' END FROM w`,
    `INSERT INTO booking_items (booking_id, asset_id, starts_at, ends_at, active, returned_at)
     SELECT id, ${pad("ast", "CAST(substr(id, 5) AS INTEGER) / 3")}, starts_at, ends_at, status = 'reserved', returned_at FROM bookings`,
    `INSERT INTO maintenance_schedules (id, item_id, title, type, every, unit, anchor_date, next_due_date, reminder_days, remind_from, status, created_by, created_at, updated_at)
     SELECT 'mts' || substr(id, 4), id, 'Service', 'service', 3, 'month', due, due, 7, date(due, '-7 days'), 'active', 'bench', '${now}', '${now}'
     FROM (SELECT rowid, id, ${date("(rowid * 7919) % 120 - 60")} AS due FROM assets WHERE rowid % 5 = 0)`,
    `INSERT INTO maintenance_logs (id, item_id, type, completed_date, performed_by, created_at, updated_at)
     SELECT ${pad("mtl", "a.rowid * 2 + k.k")}, a.id, CASE k.k WHEN 0 THEN 'service' ELSE 'inspection' END,
       ${days("-((a.rowid * 17 + k.k * 90) % 365)")}, 'bench', '${now}', '${now}'
     FROM assets a, (SELECT 0 AS k UNION ALL SELECT 1) k WHERE a.rowid % 3 = 0`,
    `${nums(200)} INSERT INTO sessions (id, name, created_by, created_at, updated_at)
     SELECT ${pad("ses", "1000 + i")}, CASE i % 4 WHEN 0 THEN 'Quarterly' WHEN 1 THEN 'Annual' WHEN 2 THEN 'Spot' ELSE 'Floor' END || ' audit ' || i, 'usr_bench', '${now}', '${now}' FROM n`,
  ];
  // Twelve completed audits, one a month, each over the first 20,000 assets; one in seven missed.
  const sessionSize = Math.min(n, 20_000);
  for (let s = 0; s < 12; s++) {
    const id = `ses_${String(s).padStart(26, "0")}`;
    const completed = days(`-${s * 30 + 1}`);
    statements.push(
      `INSERT INTO session_items (session_id, asset_id, name, unique_tag, location_id, category_id, source, excluded, wrong_location, scan_id, scanned_at, scanned_by, updated_at)
       SELECT '${id}', id, name, unique_tag, location_id, category_id, 'scope', 0, rowid % 53 = 0, CASE WHEN (rowid + ${s}) % 7 <> 0 THEN 'scn_' || rowid END, ${completed}, 'bench', ${completed}
       FROM assets WHERE rowid <= ${sessionSize}`,
      `INSERT INTO sessions (id, name, status, include_sub_locations, expected_count, scanned_count, started_at, completed_at, report, created_by, created_at, updated_at)
       SELECT '${id}', 'Monthly audit ${s}', 'completed', 1, expected, scanned, ${days(`-${s * 30 + 2}`)}, ${completed},
         json_object('expected', expected, 'scanned', scanned, 'wrongLocation', wrong,
           'byLocation', (SELECT json_group_array(json_object('id', location_id, 'name', NULL, 'expected', e, 'scanned', sc)) FROM (SELECT location_id, count(*) AS e, count(scan_id) AS sc FROM session_items WHERE session_id = '${id}' GROUP BY location_id)),
           'byCategory', (SELECT json_group_array(json_object('id', category_id, 'name', NULL, 'expected', e, 'scanned', sc)) FROM (SELECT category_id, count(*) AS e, count(scan_id) AS sc FROM session_items WHERE session_id = '${id}' GROUP BY category_id))),
         'bench', ${completed}, ${completed}
       FROM (SELECT count(*) AS expected, count(scan_id) AS scanned, sum(wrong_location) AS wrong FROM session_items WHERE session_id = '${id}')`,
    );
  }
  // The newest audit is each asset's last one.
  statements.push(
    `INSERT INTO asset_last_audit (asset_id, session_id, session_name, started_at, completed_at, found)
     SELECT asset_id, session_id, 'Monthly audit 0', ${days("-2")}, scanned_at, scan_id IS NOT NULL FROM session_items WHERE session_id = 'ses_${"0".repeat(26)}'`,
  );
  // The sessions go in already completed, which the unscanned-streak trigger (fired when a session
  // becomes completed) does not see: count the streaks with the migration's own backfill.
  statements.push("DELETE FROM analytics_unscanned_streaks", streakBackfill());
  return `${statements.map((s) => s.replace(/\s+/g, " ").trim().replace(/;$/, "")).join(";\n")};\n`;
}

/** The backfill of analytics_unscanned_streaks, as the tenant migration that made the table runs it. */
function streakBackfill() {
  const dir = new URL("../migrations/tenant/", import.meta.url);
  const file = readdirSync(dir).find((f) => f.endsWith("_analytics_rollups_2.sql"));
  const sql = readFileSync(new URL(file, dir), "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .find((s) => s.startsWith("INSERT INTO analytics_unscanned_streaks"));
  if (!sql) throw new Error("the streak backfill of the analytics rollups migration was not found");
  return sql;
}
