import { and, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { people } from "../../db/tenant/people";
import { stockLevels, stockMovements } from "../../db/tenant/stock";
import type { ServiceCtx } from "../../http/service-context";
import { batchGuard, guardFailed, type BatchRider } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { minorOf } from "./input";
import { requireStockItem } from "./items";
import { commit, locationsLive, movementRow, quantityAt, requireLocation } from "./movement-parts";

export async function receiveStock(
  ctx: ServiceCtx,
  itemId: string,
  input: {
    locationId: string;
    quantity: number;
    unitCost?: number | null;
    currency?: string | null;
    supplier?: string | null;
    reference?: string | null;
    note?: string | null;
  },
) {
  const item = await requireStockItem(ctx.db, itemId);
  await requireLocation(ctx.db, input.locationId, "body.locationId");
  const currency = input.currency ?? item.currency;
  const row = movementRow(ctx, item, "receive", {
    quantity: input.quantity,
    toLocationId: input.locationId,
    unitCostMinor: input.unitCost == null ? null : minorOf(input.unitCost, currency, "body.unitCost"),
    currency: input.unitCost == null ? null : currency,
    supplier: input.supplier || null,
    reference: input.reference || null,
    note: input.note || null,
  });
  return commit(
    ctx,
    item,
    { row, deltas: [{ locationId: input.locationId, delta: input.quantity }] },
    {
      guards: [locationsLive(ctx.db, [input.locationId])],
    },
  );
}

/** Who or what an issue goes to: an active person, a live asset or a live location (400/409 otherwise). */
async function issueTarget(ctx: ServiceCtx, input: { personId?: string; assetId?: string; toLocationId?: string }) {
  const { db } = ctx;
  if (input.personId) {
    const p = await db.select().from(people).where(eq(people.id, input.personId)).get();
    if (!p || p.deletedAt) throw invalidField("body.personId", `unknown person '${input.personId}'`);
    if (p.status !== "active") throw conflict(`The person is ${p.status}; activate them first`);
    return {
      fields: { personId: p.id },
      guard: batchGuard(
        db,
        "stock_target",
        sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${p.id} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)`,
      ),
    };
  }
  if (input.assetId) {
    const a = await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.id, input.assetId), isNull(assets.deletedAt)))
      .get();
    if (!a) throw invalidField("body.assetId", `unknown or deleted inventory item '${input.assetId}'`);
    return {
      fields: { assetId: a.id },
      guard: batchGuard(
        db,
        "stock_target",
        sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${a.id} AND ${assets.deletedAt} IS NULL)`,
      ),
    };
  }
  const l = await requireLocation(db, input.toLocationId!, "body.toLocationId");
  return { fields: { issuedToLocationId: l.id }, guard: locationsLive(db, [l.id]) };
}

/**
 * Issues units from a location. `opts` lets another module's write ride on the issue's batch (an
 * approved stock request, issue 25): its guards run after the ledger's and the issue's, its writes
 * after them, and it may fix the movement's id to reference it; a failed rider guard reaches the
 * caller unchanged.
 */
export async function issueStock(
  ctx: ServiceCtx,
  itemId: string,
  input: {
    locationId: string;
    quantity: number;
    personId?: string;
    assetId?: string;
    toLocationId?: string;
    note?: string | null;
  },
  opts: { rider?: BatchRider; movementId?: string } = {},
) {
  const item = await requireStockItem(ctx.db, itemId);
  const target = await issueTarget(ctx, input);
  const row = movementRow(ctx, item, "issue", {
    ...(opts.movementId ? { id: opts.movementId } : {}),
    quantity: input.quantity,
    fromLocationId: input.locationId,
    ...target.fields,
    openQuantity: item.returnable ? input.quantity : null,
    note: input.note || null,
  });
  const guards = [target.guard];
  // A returnable issue must stay returnable: the item may not turn consumable in between.
  if (item.returnable)
    guards.push(
      batchGuard(ctx.db, "stock_returnable", sql`(SELECT returnable FROM stock_items WHERE id = ${item.id}) = 1`),
    );
  return commit(
    ctx,
    item,
    { row, deltas: [{ locationId: input.locationId, delta: -input.quantity }] },
    { guards: [...guards, ...(opts.rider?.guards ?? [])], writes: opts.rider?.writes },
    async (err) => {
      if (guardFailed(err, "stock_target")) throw conflict("The person or item issued to changed meanwhile; retry");
      if (guardFailed(err, "stock_returnable")) throw conflict("The item changed meanwhile; retry");
    },
  );
}

export async function returnStock(
  ctx: ServiceCtx,
  itemId: string,
  input: { issueId: string; quantity?: number; locationId?: string; note?: string | null },
) {
  const item = await requireStockItem(ctx.db, itemId);
  const issue = await ctx.db
    .select()
    .from(stockMovements)
    .where(
      and(eq(stockMovements.id, input.issueId), eq(stockMovements.itemId, itemId), eq(stockMovements.kind, "issue")),
    )
    .get();
  if (!issue) throw invalidField("body.issueId", `no issue '${input.issueId}' of this stock item`);
  if (issue.openQuantity === null) throw conflict("This issue was of a consumable item: nothing comes back");
  const quantity = input.quantity ?? issue.openQuantity;
  if (issue.openQuantity < quantity || quantity === 0)
    throw conflict(`Only ${issue.openQuantity} ${item.unit} of this issue are still out`, {
      issueId: issue.id,
      openQuantity: issue.openQuantity,
      requested: quantity,
    });
  const locationId = input.locationId ?? issue.fromLocationId!;
  await requireLocation(ctx.db, locationId, "body.locationId");
  const row = movementRow(ctx, item, "return", {
    quantity,
    toLocationId: locationId,
    issueId: issue.id,
    personId: issue.personId,
    assetId: issue.assetId,
    issuedToLocationId: issue.issuedToLocationId,
    note: input.note || null,
  });
  const open = sql`${stockMovements.id} = ${issue.id} AND ${stockMovements.openQuantity} >= ${quantity}`;
  return commit(
    ctx,
    item,
    { row, deltas: [{ locationId, delta: quantity }] },
    {
      guards: [
        locationsLive(ctx.db, [locationId]),
        batchGuard(ctx.db, "stock_issue_open", sql`EXISTS (SELECT 1 FROM ${stockMovements} WHERE ${open})`),
      ],
      writes: [
        ctx.db
          .update(stockMovements)
          .set({ openQuantity: sql`${stockMovements.openQuantity} - ${quantity}` })
          .where(open),
      ],
    },
    async (err) => {
      if (guardFailed(err, "stock_issue_open"))
        throw conflict("Units of this issue were returned meanwhile; read it again", { issueId: issue.id });
    },
  );
}

export async function transferStock(
  ctx: ServiceCtx,
  itemId: string,
  input: { fromLocationId: string; toLocationId: string; quantity: number; note?: string | null },
) {
  const item = await requireStockItem(ctx.db, itemId);
  await requireLocation(ctx.db, input.toLocationId, "body.toLocationId");
  const row = movementRow(ctx, item, "transfer", {
    quantity: input.quantity,
    fromLocationId: input.fromLocationId,
    toLocationId: input.toLocationId,
    note: input.note || null,
  });
  return commit(
    ctx,
    item,
    {
      row,
      deltas: [
        { locationId: input.fromLocationId, delta: -input.quantity },
        { locationId: input.toLocationId, delta: input.quantity },
      ],
    },
    { guards: [locationsLive(ctx.db, [input.toLocationId])] },
  );
}

/**
 * A counted correction: the quantity at the location becomes `countedQuantity`. The difference is
 * taken against the quantity read (or `expectedQuantity`), and the batch holds only if that is
 * still the quantity there, so a movement in between gives a 409 instead of a wrong correction.
 */
export async function adjustStock(
  ctx: ServiceCtx,
  itemId: string,
  input: { locationId: string; countedQuantity: number; expectedQuantity?: number; reason: string },
) {
  const item = await requireStockItem(ctx.db, itemId);
  const current = await quantityAt(ctx.db, itemId, input.locationId);
  const expected = input.expectedQuantity ?? current;
  const changed = () =>
    conflict(`The quantity at this location is ${current} ${item.unit}, not ${expected}; count again`, {
      itemId,
      locationId: input.locationId,
      quantity: current,
    });
  if (expected !== current) throw changed();
  const delta = input.countedQuantity - expected;
  if (delta === 0)
    throw conflict(`Nothing to adjust: the quantity at this location is already ${current}`, { quantity: current });
  if (delta > 0) await requireLocation(ctx.db, input.locationId, "body.locationId");
  const row = movementRow(ctx, item, "adjust", {
    quantity: Math.abs(delta),
    ...(delta > 0 ? { toLocationId: input.locationId } : { fromLocationId: input.locationId }),
    countedQuantity: input.countedQuantity,
    reason: input.reason,
  });
  const level = sql`coalesce((SELECT ${stockLevels.quantity} FROM ${stockLevels} WHERE ${stockLevels.itemId} = ${itemId} AND ${stockLevels.locationId} = ${input.locationId}), 0)`;
  return commit(
    ctx,
    item,
    { row, deltas: [{ locationId: input.locationId, delta }] },
    { guards: [batchGuard(ctx.db, "stock_changed", sql`${level} = ${expected}`)] },
    async (err) => {
      if (guardFailed(err, "stock_changed")) {
        const now = await quantityAt(ctx.db, itemId, input.locationId);
        throw conflict(`The quantity at this location changed meanwhile (now ${now} ${item.unit}); count again`, {
          itemId,
          locationId: input.locationId,
          quantity: now,
        });
      }
    },
  );
}
