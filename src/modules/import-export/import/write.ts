import type { ImportEntity, importRows } from "../../../db/tenant/import-export";
import type { ServiceCtx } from "../../../http/service-context";
import { ApiError } from "../../../platform/errors";
import { type AssetInput, changeStatus, checkout, upsertAssets } from "../../assets";
import { addCodes, type CodeEntry } from "../../labels";
import { type CreatePersonInput, type UpdatePersonInput, upsertPeople } from "../../people";
import type { CustodyStep } from "./custody";
import { writeLicenceRows } from "./licence-write";
import { errorsOf, type RowResult } from "./results";
import { writeStockRows } from "./stock-write";

type Claimed = typeof importRows.$inferSelect;

/**
 * Writes a chunk's rows through the owning module: assets and people set-based (`upsertAssets` /
 * `upsertPeople`: the single routes' rules, one batch for the chunk), stock items row by row
 * (import-stock-write.ts). An error the single route would have answered refuses its row.
 */
export async function writeRows(
  ctx: ServiceCtx,
  jobId: string,
  entity: ImportEntity,
  rows: Claimed[],
): Promise<RowResult[]> {
  if (entity === "stock_item") return writeStockRows(ctx, jobId, rows);
  if (entity !== "asset" && entity !== "person") return writeLicenceRows(ctx, entity, rows);
  const results =
    entity === "asset"
      ? await upsertAssets(
          ctx,
          rows.map((r) => {
            const {
              custody: _,
              codes: _codes,
              ...input
            } = (r.input ?? {}) as AssetInput & { custody?: CustodyStep; codes?: CodeEntry[] };
            return { key: r.rowNumber, targetId: r.action === "update" ? r.targetId : null, input };
          }),
        )
      : await upsertPeople(
          ctx,
          rows.map((r) =>
            r.action === "update" && r.targetId
              ? { key: r.rowNumber, targetId: r.targetId, input: (r.input ?? {}) as UpdatePersonInput }
              : { key: r.rowNumber, targetId: null, input: (r.input ?? {}) as CreatePersonInput },
          ),
        );
  const out = results.map(
    (res): RowResult =>
      "id" in res
        ? { r: res.key, status: res.outcome, id: res.id, errors: null }
        : { r: res.key, status: "refused", id: null, errors: errorsOf(res.error) },
  );
  return entity === "asset" ? applyCodes(ctx, rows, await applyCustody(ctx, jobId, rows, out)) : out;
}

/**
 * The `codes` of each written asset row, through the labels module's attach verb (one code at a
 * time: the chunk claim counts each code as a single step, import-jobs.ts). A value another thing
 * holds refuses the row, saying its fields were written, so the file can be fixed and run again.
 */
async function applyCodes(ctx: ServiceCtx, rows: Claimed[], results: RowResult[]) {
  const lists = new Map(rows.map((r) => [r.rowNumber, (r.input as { codes?: CodeEntry[] } | null)?.codes]));
  for (const res of results) {
    const list = lists.get(res.r);
    if (!list?.length || !res.id || res.status === "refused") continue;
    try {
      await addCodes(ctx, { kind: "asset", id: res.id }, list);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      res.errors = [
        {
          path: "codes",
          message: `row ${res.r}: the row's fields were ${res.status} (${res.id}), but a code was refused: ${err.message}`,
        },
      ];
      res.status = "refused";
    }
  }
  return results;
}

/**
 * The lifecycle step of each written asset row (import-custody.ts), through the API's own verbs:
 * POST .../status (`changeStatus`) or POST .../checkout (`checkout`, status event reason
 * `csv_import` with the import's id). Row by row, after the chunk's set-based write: the chunk
 * claim takes at most PER_ROW_CHUNK such rows (import-jobs.ts), so the query budget holds. A step
 * refused meanwhile (someone checked the asset out since the plan) refuses the row and says that
 * its fields were written, so a second run of the same file finishes the job.
 */
async function applyCustody(ctx: ServiceCtx, jobId: string, rows: Claimed[], results: RowResult[]) {
  const steps = new Map(rows.map((r) => [r.rowNumber, (r.input as { custody?: CustodyStep } | null)?.custody]));
  for (const res of results) {
    const step = steps.get(res.r);
    if (!step || !res.id || res.status === "refused") continue;
    try {
      if (step.target)
        await checkout(
          ctx,
          res.id,
          { ...step.target, ...(step.dueBackAt ? { dueBackAt: step.dueBackAt } : {}) },
          // Who already holds what, recorded: not a hand-over, so no acceptance is asked.
          { reason: "csv_import", meta: { importId: jobId }, acceptance: false },
        );
      else if (step.toStatus) await changeStatus(ctx, res.id, { toStatus: step.toStatus, reason: step.reason });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const what = step.target ? "the checkout" : `the move to '${step.toStatus}'`;
      res.errors = [
        {
          path: step.target ? "holder" : "status",
          message: `row ${res.r}: the row's fields were ${res.status} (${res.id}), but ${what} was refused: ${err.message}`,
        },
      ];
      res.status = "refused";
    }
  }
  return results;
}
