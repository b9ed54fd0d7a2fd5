import { and, eq, sql } from "drizzle-orm";
import { stockLevels, stockMovements } from "../../db/tenant/stock";
import { requireActivePerson, requireAsset } from "../../domain/catalog";
import { type BatchRider, guardFailed } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { minorOf } from "./input";
import {
  commit,
  defaultReturnLocation,
  type MovementPlan,
  movementRow,
  quantityAt,
  readForMovement,
  requireLive,
} from "./ledger/movement-parts";
import type { StockCtx } from "./rows";

// Each verb is a plan (reads and checks: the 400/404/409 a request earns before any write) and a
// commit; the bulk route (bulk.ts) plans many and commits them as one batch.

export interface ReceiveInput {
  locationId: string;
  quantity: number;
  unitCost?: number | null;
  currency?: string | null;
  supplier?: string | null;
  reference?: string | null;
  note?: string | null;
}

export async function planReceive(ctx: StockCtx, itemId: string, input: ReceiveInput): Promise<MovementPlan> {
  const { item } = requireLive(
    await readForMovement(ctx.db, itemId, { locations: { "body.locationId": input.locationId } }),
  );
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
  return {
    item,
    move: {
      row,
      deltas: [{ locationId: input.locationId, delta: input.quantity }],
      needs: { locations: [input.locationId] },
    },
  };
}

/** Who or what an issue goes to: an active person, a live asset or a live location (400/409 otherwise). */
async function issueTarget(ctx: StockCtx, input: { personId?: string; assetId?: string; toLocationId?: string }) {
  const { db } = ctx;
  if (input.personId) {
    const p = await requireActivePerson(db, input.personId);
    return { fields: { personId: p.id }, needs: { personId: p.id } };
  }
  if (input.assetId) {
    const a = await requireAsset(db, input.assetId, "body.assetId");
    return { fields: { assetId: a.id }, needs: { assetId: a.id } };
  }
  return { fields: { issuedToLocationId: input.toLocationId! }, needs: { locations: [input.toLocationId!] } };
}

export interface IssueInput {
  locationId: string;
  quantity: number;
  personId?: string;
  assetId?: string;
  toLocationId?: string;
  note?: string | null;
}

export async function planIssue(ctx: StockCtx, itemId: string, input: IssueInput): Promise<MovementPlan> {
  const to: Record<string, string> =
    input.personId || input.assetId ? {} : { "body.toLocationId": input.toLocationId! };
  const { item, quantity: available } = requireLive(
    await readForMovement(ctx.db, itemId, { locations: to, quantityAt: input.locationId }),
  );
  const target = await issueTarget(ctx, input);
  const row = movementRow(ctx, item, "issue", {
    quantity: input.quantity,
    fromLocationId: input.locationId,
    ...target.fields,
    openQuantity: item.returnable ? input.quantity : null,
    note: input.note || null,
  });
  // A returnable issue must stay returnable: the item may not turn consumable in between.
  const needs = { ...target.needs, returnable: item.returnable };
  return { item, available, move: { row, deltas: [{ locationId: input.locationId, delta: -input.quantity }], needs } };
}

export interface ReturnInput {
  issueId: string;
  quantity?: number;
  locationId?: string;
  note?: string | null;
}

export async function planReturn(ctx: StockCtx, itemId: string, input: ReturnInput): Promise<MovementPlan> {
  const issue = await ctx.db
    .select()
    .from(stockMovements)
    .where(
      and(eq(stockMovements.id, input.issueId), eq(stockMovements.itemId, itemId), eq(stockMovements.kind, "issue")),
    )
    .get();
  const locationId = input.locationId ?? (issue ? defaultReturnLocation(issue) : "");
  const { item } = requireLive(
    await readForMovement(ctx.db, itemId, issue ? { locations: { "body.locationId": locationId } } : {}),
  );
  if (!issue) throw invalidField("body.issueId", `no issue '${input.issueId}' of this stock item`);
  if (issue.openQuantity === null) throw conflict("This issue was of a consumable item: nothing comes back");
  const quantity = input.quantity ?? issue.openQuantity;
  if (issue.openQuantity < quantity || quantity === 0)
    throw conflict(`Only ${issue.openQuantity} ${item.unit} of this issue are still out`, {
      issueId: issue.id,
      openQuantity: issue.openQuantity,
      requested: quantity,
    });
  const row = movementRow(ctx, item, "return", {
    quantity,
    toLocationId: locationId,
    issueId: issue.id,
    personId: issue.personId,
    assetId: issue.assetId,
    issuedToLocationId: issue.issuedToLocationId,
    note: input.note || null,
  });
  return {
    item,
    open: issue.openQuantity,
    move: {
      row,
      deltas: [{ locationId, delta: quantity }],
      needs: { locations: [locationId], closes: { issueId: issue.id, quantity } },
    },
    onGuard: async (err) => {
      if (guardFailed(err, "stock_issue_open"))
        throw conflict("Units of this issue were returned meanwhile; read it again", { issueId: issue.id });
    },
  };
}

export interface TransferInput {
  fromLocationId: string;
  toLocationId: string;
  quantity: number;
  note?: string | null;
}

export async function planTransfer(ctx: StockCtx, itemId: string, input: TransferInput): Promise<MovementPlan> {
  const { item, quantity: available } = requireLive(
    await readForMovement(ctx.db, itemId, {
      locations: { "body.toLocationId": input.toLocationId },
      quantityAt: input.fromLocationId,
    }),
  );
  const row = movementRow(ctx, item, "transfer", {
    quantity: input.quantity,
    fromLocationId: input.fromLocationId,
    toLocationId: input.toLocationId,
    note: input.note || null,
  });
  const deltas = [
    { locationId: input.fromLocationId, delta: -input.quantity },
    { locationId: input.toLocationId, delta: input.quantity },
  ];
  return { item, available, move: { row, deltas, needs: { locations: [input.toLocationId] } } };
}

export const receiveStock = async (ctx: StockCtx, itemId: string, input: ReceiveInput) =>
  commit(ctx, await planReceive(ctx, itemId, input));
/**
 * `opts` lets another module's write ride on the issue's batch (an approved stock request, issue
 * 25): its guards run after the ledger's, its writes after the movement's, and it may fix the
 * movement's id to reference it; a failed rider guard reaches the caller unchanged.
 */
export async function issueStock(
  ctx: StockCtx,
  itemId: string,
  input: IssueInput,
  opts: { rider?: BatchRider; movementId?: string } = {},
) {
  const plan = await planIssue(ctx, itemId, input);
  if (opts.movementId) plan.move.row.id = opts.movementId;
  return commit(ctx, plan, opts.rider);
}
export const returnStock = async (ctx: StockCtx, itemId: string, input: ReturnInput) =>
  commit(ctx, await planReturn(ctx, itemId, input));
export const transferStock = async (ctx: StockCtx, itemId: string, input: TransferInput) =>
  commit(ctx, await planTransfer(ctx, itemId, input));

/**
 * A counted correction: the quantity at the location becomes `countedQuantity`. The difference is
 * taken against the quantity read (or `expectedQuantity`), and the batch holds only if that is
 * still the quantity there, so a movement in between gives a 409 instead of a wrong correction.
 */
export async function adjustStock(
  ctx: StockCtx,
  itemId: string,
  input: { locationId: string; countedQuantity: number; expectedQuantity?: number; reason: string },
) {
  // The location is read too: it must be live if units arrive there (not to take them away).
  const read = await readForMovement(ctx.db, itemId, {
    quantityAt: input.locationId,
    locations: { "body.locationId": input.locationId },
  });
  const { item, quantity: current } = read;
  const expected = input.expectedQuantity ?? current;
  if (expected !== current)
    throw conflict(`The quantity at this location is ${current} ${item.unit}, not ${expected}; count again`, {
      itemId,
      locationId: input.locationId,
      quantity: current,
    });
  const delta = input.countedQuantity - expected;
  if (delta === 0)
    throw conflict(`Nothing to adjust: the quantity at this location is already ${current}`, { quantity: current });
  if (delta > 0) requireLive(read);
  const row = movementRow(ctx, item, "adjust", {
    quantity: Math.abs(delta),
    ...(delta > 0 ? { toLocationId: input.locationId } : { fromLocationId: input.locationId }),
    countedQuantity: input.countedQuantity,
    reason: input.reason,
  });
  const level = sql`coalesce((SELECT ${stockLevels.quantity} FROM ${stockLevels} WHERE ${stockLevels.itemId} = ${itemId} AND ${stockLevels.locationId} = ${input.locationId}), 0)`;
  return commit(ctx, {
    item,
    move: { row, deltas: [{ locationId: input.locationId, delta }] },
    checks: [{ name: "stock_changed", holds: sql`${level} = ${expected}` }],
    onGuard: async (err) => {
      if (guardFailed(err, "stock_changed")) {
        const now = await quantityAt(ctx.db, itemId, input.locationId);
        throw conflict(`The quantity at this location changed meanwhile (now ${now} ${item.unit}); count again`, {
          itemId,
          locationId: input.locationId,
          quantity: now,
        });
      }
    },
  });
}
