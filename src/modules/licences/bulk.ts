import { and, isNotNull, isNull, sql } from "drizzle-orm";
import { licenceLots, licenceProducts, licenceSeats } from "../../db/tenant/licences";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { type ApiError, conflict, notFound } from "../../platform/errors";
import { presentSeats } from "./holders";
import { keyCounts } from "./lots";
import { productTotals } from "./products";
import { closeSeatsWrite, isSeatRace } from "./seats";
import { toLot, toProduct } from "./view";

/** One id's outcome, as the single route would have answered it. */
export interface BulkLicenceResult<T> {
  id: string;
  ok: boolean;
  status: number;
  item?: T;
  error?: { message: string; code: string; details?: unknown; requestId: string };
}

/** What the plan decided for each id: the single route's error, or the item after the action. */
type Verdict<T> = { error: ApiError } | { status: number; item?: T };

const RACED = "bulk_licences_state";

/**
 * Commits the write of the ids that passed (one batch, guarded on the state they were planned
 * from) and answers every id in request order. A guard that fails (someone changed one of them
 * meanwhile) answers 409 for the ids that were to change, and writes none of them.
 */
async function answer<T>(
  ctx: ServiceCtx,
  ids: readonly string[],
  verdicts: Map<string, Verdict<T>>,
  write: Write | null,
  requestId: string,
  raced: (err: unknown) => boolean,
): Promise<BulkLicenceResult<T>[]> {
  let race: ApiError | null = null;
  if (write)
    try {
      await commitWrite(ctx, write);
    } catch (err) {
      if (!raced(err)) throw err;
      race = conflict("One of these changed while this request ran; retry");
    }
  const envelope = (e: ApiError) => ({
    message: e.message,
    code: e.code,
    ...(e.details === undefined ? {} : { details: e.details }),
    requestId,
  });
  return ids.map((id) => {
    const v = verdicts.get(id)!;
    if ("error" in v) return { id, ok: false, status: v.error.status, error: envelope(v.error) };
    if (race) return { id, ok: false, status: race.status, error: envelope(race) };
    return { id, ok: true, status: v.status, ...(v.item ? { item: v.item } : {}) };
  });
}

/** The guard of a bulk write: every id still in the state the plan read (`holds`, one JSON parameter for the ids). */
const stillHolds = (ctx: ServiceCtx, table: "licence_products" | "licence_lots", ids: string[], holds: string) =>
  batchGuard(
    ctx.db,
    RACED,
    sql`(SELECT count(*) FROM ${sql.raw(table)} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${sql.raw(holds)}) = ${ids.length}`,
  );

/**
 * Deletes (to the trash) or restores software products as DELETE /licence-products/{id} and POST
 * .../restore do, in one batch for all: a product with open seats is refused (409), an unknown or
 * (for delete) already deleted one is a 404, as is a restore of one not in the trash.
 */
export async function bulkProducts(
  ctx: ServiceCtx,
  input: { action: "delete" | "restore"; ids: string[] },
  requestId: string,
) {
  const { db } = ctx;
  const rows = await db.select().from(licenceProducts).where(inJson(licenceProducts.id, input.ids)).all();
  const totals = await productTotals(
    db,
    rows.map((r) => r.id),
  );
  const at = nowIso();
  const verdicts = new Map<string, Verdict<ReturnType<typeof toProduct>>>();
  const changing: typeof rows = [];
  for (const r of rows) {
    const deleting = input.action === "delete";
    if (deleting !== (r.deletedAt === null)) {
      verdicts.set(r.id, { error: notFound(deleting ? "Licence product" : "Deleted licence product") });
      continue;
    }
    const total = totals(r.id);
    if (deleting && total.assigned > 0) {
      verdicts.set(r.id, {
        error: conflict(`The product has ${total.assigned} assigned seats; unassign or reclaim them first`),
      });
      continue;
    }
    const after = { ...r, updatedAt: at, deletedAt: deleting ? at : null, deletedBy: deleting ? ctx.actor : null };
    verdicts.set(r.id, deleting ? { status: 204 } : { item: toProduct(after, total), status: 200 });
    changing.push(r);
  }
  for (const id of input.ids) if (!verdicts.has(id)) verdicts.set(id, { error: notFound("Licence product") });
  const ids = changing.map((r) => r.id);
  const write: Write | null = ids.length
    ? input.action === "delete"
      ? {
          guards: [
            stillHolds(
              ctx,
              "licence_products",
              ids,
              "deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM licence_lots l WHERE l.product_id = licence_products.id AND l.deleted_at IS NULL AND l.assigned_count > 0)",
            ),
          ],
          writes: [
            db
              .update(licenceProducts)
              .set({ deletedAt: at, deletedBy: ctx.actor, updatedAt: at })
              .where(and(inJson(licenceProducts.id, ids), isNull(licenceProducts.deletedAt))),
          ],
          events: changing.map((r) => ({
            type: "licence_product.deleted",
            subjectId: r.id,
            payload: { ...toProduct(r, totals(r.id)), deletedAt: at },
          })),
        }
      : {
          guards: [stillHolds(ctx, "licence_products", ids, "deleted_at IS NOT NULL")],
          writes: [
            db
              .update(licenceProducts)
              .set({ deletedAt: null, deletedBy: null, updatedAt: at })
              .where(and(inJson(licenceProducts.id, ids), isNotNull(licenceProducts.deletedAt))),
          ],
          events: changing.map((r) => {
            const after = { ...r, updatedAt: at, deletedAt: null, deletedBy: null };
            return { type: "licence_product.restored", subjectId: r.id, payload: toProduct(after, totals(r.id)) };
          }),
        }
    : null;
  return answer(ctx, input.ids, verdicts, write, requestId, (err) => guardFailed(err, RACED));
}

/** Deletes lots (to the trash) as DELETE /licence-lots/{id} does, in one batch: a lot with assigned seats is a 409. */
export async function bulkLots(ctx: ServiceCtx, input: { action: "delete"; ids: string[] }, requestId: string) {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(licenceLots)
    .where(and(inJson(licenceLots.id, input.ids), isNull(licenceLots.deletedAt)))
    .all();
  const keys = await keyCounts(
    db,
    rows.map((r) => r.id),
  );
  const at = nowIso();
  const verdicts = new Map<string, Verdict<never>>();
  const changing = rows.filter((r) => {
    if (r.assignedCount > 0) {
      verdicts.set(r.id, {
        error: conflict(`The lot has ${r.assignedCount} assigned seats; unassign or reclaim them first`),
      });
      return false;
    }
    verdicts.set(r.id, { status: 204 });
    return true;
  });
  for (const id of input.ids) if (!verdicts.has(id)) verdicts.set(id, { error: notFound("Licence lot") });
  const ids = changing.map((r) => r.id);
  const write: Write | null = ids.length
    ? {
        guards: [stillHolds(ctx, "licence_lots", ids, "deleted_at IS NULL AND assigned_count = 0")],
        writes: [
          db
            .update(licenceLots)
            .set({ deletedAt: at, deletedBy: ctx.actor, updatedAt: at })
            .where(and(inJson(licenceLots.id, ids), isNull(licenceLots.deletedAt))),
        ],
        events: changing.map((r) => ({
          type: "licence_lot.deleted",
          subjectId: r.id,
          payload: { ...toLot(r, keys(r.id)), deletedAt: at },
        })),
      }
    : null;
  return answer(ctx, input.ids, verdicts, write, requestId, (err) => guardFailed(err, RACED));
}

/**
 * Unassigns seats as POST /licence-seats/{id}/unassign does (`licence_seat.unassigned` each, the
 * lots recounted), in one batch: an unknown seat is a 404, one already unassigned a 409.
 */
export async function bulkSeats(ctx: ServiceCtx, input: { action: "unassign"; ids: string[] }, requestId: string) {
  const rows = await ctx.db.select().from(licenceSeats).where(inJson(licenceSeats.id, input.ids)).all();
  const open = rows.filter((r) => r.unassignedAt === null);
  const seats = await presentSeats(ctx.db, open);
  const at = nowIso();
  type Seat = (typeof seats)[number];
  const verdicts = new Map<string, Verdict<Seat>>();
  for (const r of rows)
    if (r.unassignedAt) verdicts.set(r.id, { error: conflict(`The seat was already unassigned at ${r.unassignedAt}`) });
  for (const s of seats)
    verdicts.set(s.id, {
      item: { ...s, unassignedAt: at, unassignedBy: ctx.actor, unassignReason: "unassigned", updatedAt: at },
      status: 200,
    });
  for (const id of input.ids) if (!verdicts.has(id)) verdicts.set(id, { error: notFound("Licence seat") });
  const write = open.length ? closeSeatsWrite(ctx, open, seats, "unassigned", "licence_seat.unassigned", at) : null;
  return answer(ctx, input.ids, verdicts, write, requestId, isSeatRace);
}
