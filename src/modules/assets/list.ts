import { and, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type AssetStatus, assets, type HolderKind } from "../../db/tenant/assets";
import { assetHealth } from "../../db/tenant/health";
import { liveAsset } from "../../domain/catalog";
import {
  attachHealth,
  basisOf,
  type HealthBasis,
  type HealthListInput,
  type StoredHealth,
} from "../../domain/health-engine";
import type { TenantDb } from "../../env";
import { tombstoneData, tombstoneField, tombstonesSince } from "../../events/tombstones";
import { ApiError } from "../../platform/errors";
import { decodeCursor, toPage } from "../../platform/pagination";
import { mergeSync } from "../../platform/sync";
import { asciiLower, assetTextMatch, isCommonText, prefixEnd } from "./text-match";
import { type Asset, type AssetRow, assetFieldDefs, toAsset } from "./view";

export interface ListAssetsInput extends HealthListInput {
  limit: number;
  cursor?: string;
  q?: string;
  status?: AssetStatus;
  categoryId?: string;
  locationId?: string;
  assigneeId?: string;
  /** Who or what holds the assets (kind alone, or kind and id). */
  holderKind?: HolderKind;
  holderId?: string;
  requestable?: boolean;
  /** The self-service role's reach: requestable assets and those its person holds (set by the route, not the query). */
  selfService?: { personId: string | null };
  updatedSince?: string;
  overdue?: boolean;
  /** `q` matches at least COMMON_TEXT assets (set by listAssets from a bounded count, not the query). */
  commonText?: boolean;
}

/**
 * List order, chosen so every filter reads its own index in order (no sort of a large result):
 * - default: newest first (id descending; ids are time-ordered);
 * - `overdue=true`: most overdue first (dueBackAt ascending, then id);
 * - `updatedSince`: sync order (updatedAt ascending, then id), so a client can resume from the last change.
 * - `healthSort` (wins over the two above, which then only filter): stored health score, then id;
 *   `risk_first` ascending, `healthy_first` descending (src/modules/health).
 * The cursor carries the mode, so a cursor from another ordering is refused (400).
 */
type Mode = "id" | "due" | "updated" | "risk_first" | "healthy_first";
const modeOf = (i: ListAssetsInput): Mode => i.healthSort ?? (i.overdue ? "due" : i.updatedSince ? "updated" : "id");
const byHealth = (m: Mode): m is "risk_first" | "healthy_first" => m === "risk_first" || m === "healthy_first";

/**
 * Which index drives the query. Without statistics SQLite cannot know that a prefix match is
 * rarer than a status, so we decide: `q` (multi-index OR over the three prefix indexes, then a sort
 * of the matches) unless it is common (COMMON_TEXT: then it only filters), else the ordering range of overdue/updatedSince (read in order), else the
 * planner picks among the equality filters' (column, id) indexes, all read in id order. Terms that
 * must not drive are written as `+column`, SQLite's documented way to keep a term off an index.
 * Health: with healthSort the asset_health (badge, score, id) / (status, score, id) / (score, id)
 * index drives, read in order; healthBadge alone drives through (badge, id) when no equality filter
 * is given.
 */
type Driver = "q" | "range" | "equality" | "health" | "badge";
function driverOf(i: ListAssetsInput): Driver {
  if (i.q && !i.commonText) return "q";
  const mode = modeOf(i);
  if (byHealth(mode)) return "health";
  if (mode !== "id") return "range";
  const equality = [i.status, i.categoryId, i.locationId, i.assigneeId, i.holderKind, i.holderId].some(
    (v) => v !== undefined,
  );
  return i.healthBadge && !equality ? "badge" : "equality";
}

/** The (column, id) partial index of each equality filter (src/db/tenant/assets.ts). */
const EQUALITY_INDEX: Record<string, string> = {
  status: "assets_status_idx",
  category_id: "assets_category_idx",
  location_id: "assets_location_idx",
  assignee_id: "assets_assignee_idx",
};

/**
 * The holder filters: driving through assets_holder_idx (holder_kind, holder_id, id) when the
 * equality filters drive; read from asset_health, one correlated seek per health row.
 */
function holderTerm(i: ListAssetsInput, drives: boolean, fromHealth: boolean): SQL | undefined {
  if (i.holderKind === undefined && i.holderId === undefined) return undefined;
  const terms = (t: string, plus: string) =>
    sql.join(
      [
        ...(i.holderKind === undefined ? [] : [sql`${sql.raw(`${plus}${t}.holder_kind`)} = ${i.holderKind}`]),
        ...(i.holderId === undefined ? [] : [sql`${sql.raw(`${plus}${t}.holder_id`)} = ${i.holderId}`]),
      ],
      sql` AND `,
    );
  if (fromHealth)
    return sql`(SELECT 1 FROM ${assets} f WHERE ${terms("f", "")} AND f.id = ${assetHealth.assetId} AND f.deleted_at IS NULL) = 1`;
  return terms('"assets"', drives ? "" : "+");
}

/** The list query (exported so the query-plan test can EXPLAIN exactly what the route runs). */
export function listAssetsQuery(db: TenantDb, input: ListAssetsInput, now: string) {
  const mode = modeOf(input);
  const driver = driverOf(input);
  const col = (c: SQLiteColumn, drives: boolean): SQL => (drives ? sql`${c}` : sql`+${c}`);
  const fromHealth = driver === "health" || driver === "badge";
  // Read in asset_health order, an equality filter is checked in its own narrow (column, id) index,
  // keyed by the health row's asset_id, before the asset row is fetched: the rows a filter skips
  // (e.g. the lost assets in front of risk_first) cost an index seek each, not a table-row fetch.
  const eqTerm = (c: SQLiteColumn, v: string | undefined) => {
    if (v === undefined) return undefined;
    if (!fromHealth) return sql`${col(c, driver === "equality")} = ${v}`;
    // A scalar subquery, not EXISTS: SQLite turns an EXISTS into a join placed after the asset lookup,
    // while a term that references only asset_health is tested in the outer loop, before it.
    return sql`(SELECT 1 FROM ${assets} f INDEXED BY ${sql.raw(EQUALITY_INDEX[c.name]!)} WHERE f.${sql.raw(c.name)} = ${v} AND f.id = ${assetHealth.assetId} AND f.deleted_at IS NULL) = 1`;
  };
  const joined = byHealth(mode) || input.healthBadge !== undefined;
  // Driven from asset_health, the id in seeks and order is its asset_id (the join makes them equal).
  const id = driver === "health" || driver === "badge" ? sql`${assetHealth.assetId}` : col(assets.id, driver !== "q");
  const score = col(assetHealth.score, driver === "health");
  const due = col(assets.dueBackAt, driver === "range" && mode === "due");
  const updated = col(assets.updatedAt, driver === "range" && mode === "updated");
  const after = decodeListCursor(input.cursor, mode);
  const key = mode === "due" ? due : mode === "updated" ? updated : score;
  const seek = !after
    ? undefined
    : mode === "id"
      ? sql`${id} < ${after[0]}`
      : sql`(${key}, ${id}) ${mode === "healthy_first" ? sql`<` : sql`>`} (${after[0]}, ${after[1]})`;
  const where = and(
    // Sync (updatedSince) also returns deleted assets: tombstones carry deletedAt.
    mode === "updated" ? undefined : liveAsset,
    input.q ? assetTextMatch(input.q, driver === "q") : undefined,
    // In score order the status is read from asset_health (kept equal by triggers): its (status, score, id)
    // index drives, so no asset of another status is skipped (the lost ones before risk_first).
    driver === "health" && input.status !== undefined
      ? sql`${assetHealth.status} = ${input.status}`
      : eqTerm(assets.status, input.status),
    eqTerm(assets.categoryId, input.categoryId),
    eqTerm(assets.locationId, input.locationId),
    eqTerm(assets.assigneeId, input.assigneeId),
    holderTerm(input, driver === "equality", fromHealth),
    input.requestable === undefined ? undefined : sql`+${assets.requestable} = ${input.requestable ? 1 : 0}`,
    input.selfService
      ? sql`(+${assets.requestable} = 1 OR +${assets.assigneeId} = ${input.selfService.personId ?? ""})`
      : undefined,
    input.healthBadge
      ? sql`${col(assetHealth.badge, driver === "health" || driver === "badge")} = ${input.healthBadge}`
      : undefined,
    // With a cursor the seek below already lies past updatedSince; leaving the bound out lets the seek drive the index.
    input.updatedSince && !(after && mode === "updated")
      ? sql`${updated} >= ${new Date(input.updatedSince).toISOString()}`
      : undefined,
    // dueBackAt is only ever set while the asset is checked out (check-in clears it).
    input.overdue ? sql`${due} < ${now} AND +${assets.assigneeId} IS NOT NULL` : undefined,
    seek,
  );
  const dir = mode === "id" || mode === "healthy_first" ? sql`DESC` : sql`ASC`;
  const order = mode === "id" ? [sql`${id} ${dir}`] : [sql`${key} ${dir}`, sql`${id} ${dir}`];
  // The stored score rides along for the health cursor; the list never computes one.
  const fields = {
    ...getTableColumns(assets),
    healthScore: joined ? sql<number | null>`${assetHealth.score}` : sql<number | null>`NULL`,
  };
  const limit = input.limit + 1;
  // Driven from asset_health: a CROSS JOIN keeps it the outer loop (SQLite never reorders one), so
  // rows come off its index in order however selective the other filters look to the planner.
  if (driver === "health" || driver === "badge")
    return db
      .select(fields)
      .from(assetHealth)
      .crossJoin(assets)
      .where(and(eq(assets.id, assetHealth.assetId), where))
      .orderBy(...order)
      .limit(limit);
  if (joined)
    return db
      .select(fields)
      .from(assets)
      .innerJoin(assetHealth, eq(assetHealth.assetId, assets.id))
      .where(where)
      .orderBy(...order)
      .limit(limit);
  return db
    .select(fields)
    .from(assets)
    .where(where)
    .orderBy(...order)
    .limit(limit);
}

function decodeListCursor(cursor: string | undefined, mode: Mode) {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor, mode === "id" ? 2 : 3);
  if (key?.[0] !== mode)
    throw new ApiError("validation_failed", "cursor is not valid for these filters", {
      details: [{ path: "query.cursor", message: "from a list with other filters" }],
    });
  return key.slice(1);
}

const cursorKey = (mode: Mode) => (r: AssetRow & { healthScore: number | null }) =>
  mode === "id"
    ? [mode, r.id]
    : mode === "due"
      ? [mode, r.dueBackAt, r.id]
      : mode === "updated"
        ? [mode, r.updatedAt, r.id]
        : [mode, r.healthScore, r.id];

/**
 * Sync: assets purged from the trash, from their tombstones, filtered on their last state (a health
 * badge matches none: they have no health), to merge with the page's rows in (updatedAt, id) order.
 */
async function purgedAssets(db: TenantDb, input: ListAssetsInput) {
  const d = tombstoneData;
  const eqs = (["status", "categoryId", "locationId", "assigneeId"] as const).flatMap((k) =>
    input[k] !== undefined ? [tombstoneField(k, input[k])] : [],
  );
  const q = input.q ? asciiLower(input.q) : undefined;
  const prefix = (f: string) => sql`(lower(${d(f)}) >= ${q} AND lower(${d(f)}) < ${prefixEnd(q!)})`;
  const filters = [
    ...eqs,
    ...(q ? [sql`(${prefix("name")} OR ${prefix("uniqueTag")} OR ${prefix("serialNumber")})`] : []),
    // Purged assets have no health, and none was held (a held asset cannot be deleted).
    ...(input.healthBadge || input.holderKind || input.holderId ? [sql`0`] : []),
    ...(input.requestable !== undefined ? [sql`${d("requestable")} = ${input.requestable ? 1 : 0}`] : []),
    ...(input.selfService ? [sql`0`] : []),
  ];
  const after = decodeListCursor(input.cursor, "updated");
  const since = new Date(input.updatedSince!).toISOString();
  const gone = await tombstonesSince(db, "asset", assets, { since, after, limit: input.limit }, filters);
  return gone.map((r) => ({ ...r, healthScore: null }));
}

/** A page of assets, each with its `health` (stored; re-scored on the spot only when stale). */
export async function listAssets(db: TenantDb, input: ListAssetsInput, basis: HealthBasis = basisOf({})) {
  // The live field definitions are read once for the page (values of deleted fields are hidden).
  if (input.q) input = { ...input, commonText: await isCommonText(db, input.q) };
  let [rows, defs] = await Promise.all([
    listAssetsQuery(db, input, new Date().toISOString()).all(),
    assetFieldDefs(db),
  ]);
  const sync = modeOf(input) === "updated";
  if (sync) rows = mergeSync(rows, await purgedAssets(db, input));
  const page = toPage(rows, input.limit, cursorKey(modeOf(input)), (r): Asset & { deletedAt?: string | null } =>
    sync ? { ...toAsset(r, defs), deletedAt: r.deletedAt } : toAsset(r, defs),
  );
  if (!sync) return { items: await attachHealth(db, page.items, basis), nextCursor: page.nextCursor };
  // A sync page keeps its tombstones (deleted assets have no health) in their place.
  const withHealth = new Map(
    (
      await attachHealth(
        db,
        page.items.filter((i) => i.deletedAt == null),
        basis,
      )
    ).map((i) => [i.id, i]),
  );
  const items = page.items.flatMap((i) =>
    i.deletedAt != null
      ? [{ ...i, health: null as StoredHealth | null }]
      : withHealth.has(i.id)
        ? [withHealth.get(i.id)!]
        : [],
  );
  return { items, nextCursor: page.nextCursor };
}
