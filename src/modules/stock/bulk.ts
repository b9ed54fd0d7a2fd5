import { guardFailed } from "../../platform/d1-write";
import { ApiError, conflict } from "../../platform/errors";
import type { BulkStockMovementsInput, BulkStockMovementsResult } from "./bulk-schemas";
import { stockFieldDefs } from "./items";
import { commitMovements, lowNow } from "./ledger/commit";
import type { MovementPlan } from "./ledger/movement-parts";
import { planIssue, planReceive, planReturn, planTransfer } from "./movements";
import type { StockCtx } from "./rows";
import { toMovement, toStockItem } from "./view";

const ATTEMPTS = 2;
type Movement = BulkStockMovementsInput["movements"][number];
type Verdict = { error: ApiError } | { plan: MovementPlan };

function planOf(ctx: StockCtx, m: Movement): Promise<MovementPlan> {
  const { kind, stockItemId, ...body } = m;
  if (kind === "receive") return planReceive(ctx, stockItemId, body as Parameters<typeof planReceive>[2]);
  if (kind === "issue") return planIssue(ctx, stockItemId, body as Parameters<typeof planIssue>[2]);
  if (kind === "return") return planReturn(ctx, stockItemId, body as Parameters<typeof planReturn>[2]);
  return planTransfer(ctx, stockItemId, body as Parameters<typeof planTransfer>[2]);
}

/**
 * Plans the movements in request order, each as its single route would (the same 400/404/409),
 * and checks each take against the units read plus what the earlier movements of this request
 * change there, and each return against its issue's units still out less earlier returns: a
 * movement that fails does not count for the ones after it.
 */
async function planAll(ctx: StockCtx, movements: readonly Movement[]): Promise<Verdict[]> {
  const change = new Map<string, number>();
  const closed = new Map<string, number>();
  const verdicts: Verdict[] = [];
  for (const m of movements) {
    const plan = await planOf(ctx, m).catch((err: unknown) => {
      if (err instanceof ApiError) return err;
      throw err;
    });
    if (plan instanceof ApiError) {
      verdicts.push({ error: plan });
      continue;
    }
    const { item, move } = plan;
    const key = (locationId: string) => `${item.id}\n${locationId}`;
    const take = move.deltas.find((d) => d.delta < 0);
    const have = take ? (plan.available ?? 0) + (change.get(key(take.locationId)) ?? 0) : 0;
    if (take && have < -take.delta) {
      verdicts.push({
        error: conflict(
          `Not enough stock: ${have} ${item.unit} of '${item.name}' at ${take.locationId} after the movements before this one, ${-take.delta} requested`,
          { itemId: item.id, locationId: take.locationId, available: have, requested: -take.delta },
        ),
      });
      continue;
    }
    const closes = move.needs?.closes;
    const out = closes ? (plan.open ?? 0) - (closed.get(closes.issueId) ?? 0) : 0;
    if (closes && out < closes.quantity) {
      verdicts.push({
        error: conflict(`Only ${out} ${item.unit} of this issue are still out`, {
          issueId: closes.issueId,
          openQuantity: out,
          requested: closes.quantity,
        }),
      });
      continue;
    }
    for (const d of move.deltas) change.set(key(d.locationId), (change.get(key(d.locationId)) ?? 0) + d.delta);
    if (closes) closed.set(closes.issueId, (closed.get(closes.issueId) ?? 0) + closes.quantity);
    verdicts.push({ plan });
  }
  return verdicts;
}

const errorOf = (e: ApiError, requestId: string) => ({
  message: e.message,
  code: e.code,
  ...(e.details === undefined ? {} : { details: e.details }),
  requestId,
});

/**
 * Many movements in one request (POST /stock-movements/bulk). The movements that pass are written
 * as ONE ledger batch (its checks are set-based: a fixed number of statements and bound parameters
 * for any count), so the quantities stay exact and each reorder level is crossed at most once by the
 * request, judged on the quantities after all of it. If the batch's guards fail (another request
 * moved the same stock meanwhile), everything is planned again from fresh reads; after 2 attempts
 * the movements still planned answer 409.
 */
export async function bulkStockMovements(
  ctx: StockCtx,
  input: BulkStockMovementsInput,
  requestId: string,
): Promise<BulkStockMovementsResult["items"]> {
  let verdicts: Verdict[] = [];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    verdicts = await planAll(ctx, input.movements);
    const plans = verdicts.flatMap((v) => ("plan" in v ? [v.plan] : []));
    if (!plans.length) return answer(verdicts, requestId, new Map());
    const written = await commitMovements(
      ctx,
      plans.map((p) => p.move),
      { watched: plans.some((p) => p.item.watched) },
    ).catch((err: unknown) => {
      if (guardFailed(err)) return null;
      throw err;
    });
    if (!written) continue;
    const defs = await stockFieldDefs(ctx.db);
    const items = new Map(
      written.items.map((row) => [row.id, toStockItem({ ...row, low: lowNow(row.reorderLevel, row.onHand) }, defs)]),
    );
    return answer(verdicts, requestId, items);
  }
  const raced = conflict("The stock changed while this request ran; retry");
  return answer(
    verdicts.map((v) => ("plan" in v ? { error: raced } : v)),
    requestId,
    new Map(),
  );
}

function answer(
  verdicts: Verdict[],
  requestId: string,
  items: Map<string, ReturnType<typeof toStockItem>>,
): BulkStockMovementsResult["items"] {
  return verdicts.map((v, index) =>
    "error" in v
      ? { index, ok: false, status: v.error.status, error: errorOf(v.error, requestId) }
      : {
          index,
          ok: true,
          status: 201,
          movement: toMovement(v.plan.move.row),
          stockItem: items.get(v.plan.item.id),
        },
  );
}
