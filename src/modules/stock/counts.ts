import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { sessions } from "../../db/tenant/sessions";
import { stockCountScans, stockCounts, stockItems } from "../../db/tenant/stock";
import { requireLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchable, batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { commitMovements, type PlannedMovement } from "./ledger/commit";
import { movementRow, quantityAt } from "./ledger/movement-parts";
import type { StockCtx } from "./rows";
import { toMovement } from "./view";

/**
 * Counting stock in inventory sessions (docs/stock.md#counting-in-sessions). Counts are quantities, not scans of
 * unique tags, so they need none of the InventorySession object's per-asset scan state: they are
 * written straight to D1, one upsert per (session, item, location), the latest count winning. A
 * `scanId` makes an offline replay count once (its first use is recorded in the same batch).
 * `expected` is the on-hand quantity when counted; the variance `counted - expected` is applied on
 * top of the quantity at apply time, so movements made after the count are kept.
 */
async function requireSession(db: TenantDb, id: string) {
  const row = await db
    .select({ id: sessions.id, status: sessions.status })
    .from(sessions)
    .where(eq(sessions.id, id))
    .get();
  if (!row) throw notFound("Session");
  return row;
}

const toCount = (r: typeof stockCounts.$inferSelect) => ({
  sessionId: r.sessionId,
  itemId: r.itemId,
  locationId: r.locationId,
  expected: r.expected,
  counted: r.counted,
  variance: r.counted - r.expected,
  scanId: r.scanId,
  countedBy: r.countedBy,
  countedAt: r.countedAt,
  appliedMovementId: r.appliedMovementId,
});

export async function countStock(
  ctx: ServiceCtx,
  sessionId: string,
  input: { itemId: string; locationId: string; countedQuantity: number; scanId?: string },
) {
  const { db } = ctx;
  const session = await requireSession(db, sessionId);
  if (session.status !== "active")
    throw conflict(`The session is ${session.status}; counts are taken while it is active`);
  const item = await db
    .select({ id: stockItems.id })
    .from(stockItems)
    .where(and(eq(stockItems.id, input.itemId), isNull(stockItems.deletedAt)))
    .get();
  if (!item) throw invalidField("body.itemId", `unknown or deleted stock item '${input.itemId}'`);
  await requireLocation(db, input.locationId, "body.locationId");
  const at = nowIso();
  const expected = await quantityAt(db, input.itemId, input.locationId);
  const key = and(
    eq(stockCounts.sessionId, sessionId),
    eq(stockCounts.itemId, input.itemId),
    eq(stockCounts.locationId, input.locationId),
  );
  const { results } = await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(db, "session_active", sql`(SELECT status FROM ${sessions} WHERE id = ${sessionId}) = 'active'`),
      ],
      writes: [
        ...(input.scanId
          ? [db.insert(stockCountScans).values({ sessionId, scanId: input.scanId, at }).onConflictDoNothing()]
          : []),
        // Counted only when the scan was new (`changes()` of the scan insert just before).
        batchable(
          db,
          db.run(sql`INSERT INTO ${stockCounts} (session_id, item_id, location_id, expected, counted, scan_id, counted_by, counted_at)
          SELECT ${sessionId}, ${input.itemId}, ${input.locationId}, ${expected}, ${input.countedQuantity}, ${input.scanId ?? null}, ${ctx.actor}, ${at}
          WHERE ${input.scanId ? sql`changes() > 0` : sql`true`}
          ON CONFLICT (session_id, item_id, location_id) DO UPDATE SET expected = excluded.expected, counted = excluded.counted,
            scan_id = excluded.scan_id, counted_by = excluded.counted_by, counted_at = excluded.counted_at, applied_movement_id = NULL`),
        ),
      ],
      derived: [db.select().from(stockCounts).where(key)],
    },
    (err) => {
      if (guardFailed(err, "session_active")) throw conflict("The session is no longer active");
      throw err;
    },
  );
  const written = (results[results.length - 2] as D1Result).meta.changes > 0;
  const row = (results[results.length - 1] as (typeof stockCounts.$inferSelect)[])[0];
  if (!row) throw conflict(`The scan '${input.scanId}' was already used for another count of this session`);
  return { result: written ? ("counted" as const) : ("already_counted" as const), count: toCount(row) };
}

export async function listStockCounts(db: TenantDb, sessionId: string, input: { limit: number; cursor?: string }) {
  await requireSession(db, sessionId);
  const page = keyset(input, { by: [stockCounts.itemId, stockCounts.locationId] });
  const rows = await db
    .select()
    .from(stockCounts)
    .where(and(eq(stockCounts.sessionId, sessionId), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.itemId, r.locationId], toCount);
}

/** At most this many variances are applied per call (one batch); call again for the rest. */
export const APPLY_MAX = 200;

/**
 * The one-step "apply" of a completed session: an adjust movement per count with a variance not yet
 * applied, all in one batch (all or none; a location that cannot give the units is a 409 naming it).
 */
export async function applyStockCounts(ctx: StockCtx, sessionId: string) {
  const { db } = ctx;
  const session = await requireSession(db, sessionId);
  if (session.status !== "completed")
    throw conflict(`The session is ${session.status}; apply its counts once completed`);
  const pending = await db
    .select()
    .from(stockCounts)
    .where(
      and(
        eq(stockCounts.sessionId, sessionId),
        isNull(stockCounts.appliedMovementId),
        sql`${stockCounts.counted} <> ${stockCounts.expected}`,
      ),
    )
    .orderBy(asc(stockCounts.itemId), asc(stockCounts.locationId))
    .limit(APPLY_MAX)
    .all();
  if (!pending.length) return { applied: [] };
  const moves: PlannedMovement[] = pending.map((c) => {
    const delta = c.counted - c.expected;
    return {
      row: movementRow(ctx, { id: c.itemId }, "adjust", {
        quantity: Math.abs(delta),
        ...(delta > 0 ? { toLocationId: c.locationId } : { fromLocationId: c.locationId }),
        countedQuantity: c.counted,
        reason: `inventory session ${sessionId}`,
        sessionId,
      }),
      deltas: [{ locationId: c.locationId, delta }],
    };
  });
  const links = JSON.stringify(moves.map((m) => [m.row.itemId, m.deltas[0]!.locationId, m.row.id]));
  const pairs = pending.map((c) => `${c.itemId}\n${c.locationId}`);
  await commitMovements(
    ctx,
    moves,
    {
      guards: [
        batchGuard(
          db,
          "counts_pending",
          sql`(SELECT count(*) FROM ${stockCounts} WHERE ${stockCounts.sessionId} = ${sessionId} AND ${stockCounts.appliedMovementId} IS NULL
              AND ${inJson(sql`${stockCounts.itemId} || char(10) || ${stockCounts.locationId}`, pairs)}) = ${pending.length}`,
        ),
      ],
      writes: [
        batchable(
          db,
          db.run(sql`UPDATE ${stockCounts} SET applied_movement_id = j.value ->> 2 FROM json_each(${links}) AS j
              WHERE ${stockCounts.sessionId} = ${sessionId} AND ${stockCounts.itemId} = j.value ->> 0 AND ${stockCounts.locationId} = j.value ->> 1`),
        ),
      ],
    },
    (err) => {
      if (guardFailed(err, "counts_pending"))
        throw conflict("The counts were applied or changed meanwhile; read them again");
      if (guardFailed(err, "stock_short"))
        throw conflict("A location holds fewer units than its variance takes away; count it again", {});
      if (guardFailed(err, "stock_item_live")) throw conflict("A counted stock item was deleted meanwhile");
      throw err;
    },
  );
  return { applied: moves.map((m) => toMovement(m.row)) };
}
