import { sql } from "drizzle-orm";
import type { importRows } from "../../../db/tenant/import-export";
import type { ServiceCtx } from "../../../http/service-context";
import { ApiError } from "../../../platform/errors";
import { addCodes, type CodeEntry } from "../../labels";
import { adjustStock, createStockItem, receiveStock, type StockItemInput, updateStockItem } from "../../stock";
import { errorsOf, type RowResult } from "./results";
import type { OpeningQuantity } from "./stock";

type Claimed = typeof importRows.$inferSelect;

/** What an import's movements say about themselves (reference / reason), so the history names its source. */
const sourceOf = (jobId: string) => `CSV import ${jobId}`;

/**
 * Writes stock rows one by one through the stock routes' own verbs (the chunk claim takes at most
 * PER_ROW_CHUNK of them): the item is created or updated, then each opening quantity becomes a real
 * movement, so the history stays the truth about every unit:
 * - a created item RECEIVES its quantity at each location (`receive`, reference `CSV import <job>`);
 * - an updated item is ADJUSTED to the stated quantity where it differs (`adjust`, a counted
 *   correction with reason `CSV import <job>`, guarded on the quantity read: a movement in between
 *   refuses it rather than writing a wrong correction). The same file imported twice writes nothing
 *   the second time.
 * A movement refused after the item was written refuses the row and says so, with the item's id.
 */
export async function writeStockRows(ctx: ServiceCtx, jobId: string, rows: Claimed[]): Promise<RowResult[]> {
  const out: RowResult[] = [];
  for (const row of rows) {
    const {
      quantities = [],
      codes = [],
      ...input
    } = (row.input ?? {}) as StockItemInput & { quantities?: OpeningQuantity[]; codes?: CodeEntry[] };
    let step: "quantities" | "codes" = "quantities";
    let written: RowResult | null = null;
    try {
      written =
        row.action === "update" && row.targetId
          ? {
              r: row.rowNumber,
              status: "updated",
              id: (await updateStockItem(ctx, row.targetId, input)).id,
              errors: null,
            }
          : {
              r: row.rowNumber,
              status: "created",
              id: (await createStockItem(ctx, input as StockItemInput & { name: string })).id,
              errors: null,
            };
      await writeQuantities(ctx, jobId, written, quantities);
      step = "codes";
      if (codes.length && written.id) await addCodes(ctx, { kind: "stockItem", id: written.id }, codes);
      out.push(written);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      out.push(
        written
          ? {
              r: row.rowNumber,
              status: "refused",
              id: written.id,
              errors: [
                {
                  path: step,
                  message: `row ${row.rowNumber}: the item was ${written.status} (${written.id}), but ${step === "codes" ? "a code" : "a quantity"} was refused: ${err.message}`,
                },
              ],
            }
          : { r: row.rowNumber, status: "refused", id: null, errors: errorsOf(err) },
      );
    }
  }
  return out;
}

async function writeQuantities(ctx: ServiceCtx, jobId: string, item: RowResult, quantities: OpeningQuantity[]) {
  if (quantities.length === 0 || !item.id) return;
  const itemId = item.id;
  const source = sourceOf(jobId);
  if (item.status === "created") {
    for (const q of quantities)
      if (q.quantity > 0)
        await receiveStock(ctx, itemId, {
          locationId: q.locationId,
          quantity: q.quantity,
          reference: source,
          note: "Opening quantity",
        });
    return;
  }
  const levels = new Map(
    (
      await ctx.db.all<{ locationId: string; quantity: number }>(
        sql`SELECT location_id AS locationId, quantity FROM stock_levels WHERE item_id = ${itemId}`,
      )
    ).map((l) => [l.locationId, l.quantity]),
  );
  for (const q of quantities) {
    const current = levels.get(q.locationId) ?? 0;
    if (current !== q.quantity)
      await adjustStock(ctx, itemId, {
        locationId: q.locationId,
        countedQuantity: q.quantity,
        expectedQuantity: current,
        reason: source,
      });
  }
}
