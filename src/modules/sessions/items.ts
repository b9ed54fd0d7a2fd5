import { and, desc, eq, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { scanEvents, sessionItems } from "../../db/tenant/sessions";
import type { ItemInfo } from "../../domain/inventory-session";
import { nowIso } from "../../platform/clock";
import { ApiError, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { callObject, closedConflict, requireSession, type SessionCtx, type SessionRow, sessionObject } from "./context";
import { buildReport } from "./report";
import { unknownCodeList } from "./unknown-codes";

type ItemRow = typeof sessionItems.$inferSelect;
export type ItemState = "scanned" | "missing" | "excluded" | "found";

const stateOf = (r: ItemRow): ItemState =>
  r.excluded ? "excluded" : r.source === "found" ? "found" : r.scanId ? "scanned" : "missing";

export const toSessionItem = (r: ItemRow) => ({
  itemId: r.assetId,
  name: r.name,
  uniqueTag: r.uniqueTag,
  locationId: r.locationId,
  categoryId: r.categoryId,
  source: r.source,
  state: stateOf(r),
  wrongLocation: r.wrongLocation,
  scan: r.scanId ? { scanId: r.scanId, scannedAt: r.scannedAt, scannedBy: r.scannedBy, condition: r.condition } : null,
});

/** Reads go to D1: an active session's object writes its pending scans through first. */
async function freshSession(ctx: SessionCtx, id: string): Promise<SessionRow> {
  const row = await requireSession(ctx, id);
  if (row.status === "active") {
    const res = await sessionObject(ctx, id).flush();
    if (!res.ok)
      throw new ApiError("service_unavailable", "The session's latest scans could not be read yet; retry shortly");
  }
  return row;
}

const STATE_FILTER: Record<ItemState | "all", ReturnType<typeof sql> | undefined> = {
  all: sql`NOT (${sessionItems.source} = 'found' AND ${sessionItems.scanId} IS NULL)`,
  scanned: sql`${sessionItems.excluded} = 0 AND ${sessionItems.source} <> 'found' AND ${sessionItems.scanId} IS NOT NULL`,
  missing: sql`${sessionItems.excluded} = 0 AND ${sessionItems.source} <> 'found' AND ${sessionItems.scanId} IS NULL`,
  excluded: sql`${sessionItems.excluded} = 1`,
  found: sql`${sessionItems.excluded} = 0 AND ${sessionItems.source} = 'found' AND ${sessionItems.scanId} IS NOT NULL`,
};

/** Items by asset id (creation order). A draft lists only its manual includes and exclusions: the set is taken at start. */
export async function listItems(
  ctx: SessionCtx,
  id: string,
  input: { limit: number; cursor?: string; state?: ItemState | "all" },
) {
  await freshSession(ctx, id);
  const page = keyset(input, { by: [sessionItems.assetId] });
  const rows = await ctx.db
    .select()
    .from(sessionItems)
    .where(and(eq(sessionItems.sessionId, id), STATE_FILTER[input.state ?? "all"], page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.assetId], toSessionItem);
}

export async function getItem(ctx: SessionCtx, id: string, itemId: string) {
  await freshSession(ctx, id);
  const row = await ctx.db
    .select()
    .from(sessionItems)
    .where(and(eq(sessionItems.sessionId, id), eq(sessionItems.assetId, itemId)))
    .get();
  if (!row) throw notFound("Session item");
  const scans = await ctx.db
    .select()
    .from(scanEvents)
    .where(and(eq(scanEvents.sessionId, id), eq(scanEvents.assetId, itemId)))
    .orderBy(desc(scanEvents.scannedAt), desc(scanEvents.id))
    .limit(20)
    .all();
  return {
    ...toSessionItem(row),
    scans: scans.map((e) => ({
      scanId: e.id,
      result: e.result,
      scannedAt: e.scannedAt,
      scannedBy: e.scannedBy,
      condition: e.condition,
      comment: e.comment,
      rescan: e.rescan,
      unscannedAt: e.unscannedAt,
      supersededBy: e.supersededBy,
    })),
  };
}

/** The report: live for an active session (after a write-through), stored for an ended one. */
export async function getReport(ctx: SessionCtx, id: string) {
  const row = await freshSession(ctx, id);
  if (row.report && (row.status === "completed" || row.status === "cancelled")) {
    const stored = row.report as Awaited<ReturnType<typeof buildReport>>;
    if (stored.unknownCodeList) return stored;
    // Stored before the report listed unknown codes: the scan events are final, so list them now.
    const list = await unknownCodeList(ctx.db, id);
    return { ...stored, unknownCodeList: list.items, unknownCodeListTruncated: list.truncated };
  }
  return buildReport(ctx, row);
}

async function requireAssetInfo(ctx: SessionCtx, assetId: string): Promise<ItemInfo> {
  const a = await ctx.db
    .select({
      assetId: assets.id,
      name: assets.name,
      uniqueTag: assets.uniqueTag,
      locationId: assets.locationId,
      categoryId: assets.categoryId,
    })
    .from(assets)
    .where(and(eq(assets.id, assetId), sql`${assets.deletedAt} IS NULL`))
    .get();
  if (!a) throw notFound("Inventory item");
  return a;
}

/**
 * Include (excluded = false) or exclude an asset. A draft records it in D1 for the start to honour;
 * an active session's object changes its set and writes it through; an ended session refuses (409).
 */
export async function setMembership(ctx: SessionCtx, id: string, itemId: string, excluded: boolean) {
  const session = await requireSession(ctx, id);
  if (session.status === "completed" || session.status === "cancelled") throw closedConflict(session.status);
  const info = await requireAssetInfo(ctx, itemId);
  if (session.status === "draft") {
    const now = nowIso();
    await ctx.db
      .insert(sessionItems)
      .values({ sessionId: id, ...info, source: "manual", excluded, updatedAt: now })
      .onConflictDoUpdate({ target: [sessionItems.sessionId, sessionItems.assetId], set: { excluded, updatedAt: now } })
      .run();
  } else {
    await callObject(ctx, id, (o) => (excluded ? o.exclude(info) : o.include(info)));
  }
  return getItem(ctx, id, itemId);
}
