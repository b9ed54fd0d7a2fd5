import type { ImportEntity, importRows } from "../../../db/tenant/import-export";
import type { ServiceCtx } from "../../../http/service-context";
import { ApiError } from "../../../platform/errors";
import {
  addSealedLicenceKey,
  assignLicenceSeat,
  createLicenceLot,
  createLicenceProduct,
  type LicenceLotInput,
  updateLicenceLot,
  updateLicenceProduct,
} from "../../licences";
import { errorsOf, type RowResult } from "./results";

type Claimed = typeof importRows.$inferSelect;
type LotRowInput = LicenceLotInput & { productId: string; keysSealed?: string[] };

/**
 * Writes licence rows one by one through the licence routes' own verbs (the chunk claim takes at
 * most PER_ROW_CHUNK of them), so each row has the single route's rules, events and audit: a
 * product is created or updated; a lot too, then its sealed keys are added; a seat is assigned
 * (guarded on the lot's free seats), and a seat the holder already has is no change.
 */
export async function writeLicenceRows(ctx: ServiceCtx, entity: ImportEntity, rows: Claimed[]): Promise<RowResult[]> {
  const out: RowResult[] = [];
  for (const row of rows) {
    const r = row.rowNumber;
    const update = row.action === "update" && row.targetId ? row.targetId : null;
    let written: RowResult | null = null;
    try {
      if (entity === "licence_product") {
        const input = (row.input ?? {}) as { name: string };
        const done = update ? await updateLicenceProduct(ctx, update, input) : await createLicenceProduct(ctx, input);
        written = { r, status: update ? "updated" : "created", id: done.id, errors: null };
      } else if (entity === "licence_lot") {
        const { productId, keysSealed = [], ...input } = (row.input ?? {}) as LotRowInput;
        const done = update
          ? await updateLicenceLot(ctx, update, input)
          : await createLicenceLot(
              ctx,
              productId,
              input as LicenceLotInput & { kind: NonNullable<LicenceLotInput["kind"]> },
            );
        written = { r, status: update ? "updated" : "created", id: done.id, errors: null };
        for (const keySealed of keysSealed) await addSealedLicenceKey(ctx, done.id, { keySealed, label: "CSV import" });
      } else if (update) written = { r, status: "updated", id: update, errors: null };
      else {
        const { lotId, ...holder } = (row.input ?? {}) as { lotId: string; personId?: string; assetId?: string };
        written = { r, status: "created", id: (await assignLicenceSeat(ctx, lotId, holder)).id, errors: null };
      }
      out.push(written);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      out.push(
        written
          ? {
              r,
              status: "refused",
              id: written.id,
              errors: [
                {
                  path: "keys",
                  message: `row ${r}: the lot was ${written.status} (${written.id}), but a key was refused: ${err.message}`,
                },
              ],
            }
          : { r, status: "refused", id: null, errors: errorsOf(err) },
      );
    }
  }
  return out;
}
