import { sql } from "drizzle-orm";
import { assets } from "../../../db/tenant/assets";
import type { ServiceCtx } from "../../../http/service-context";
import { nowIso } from "../../../platform/clock";
import { isUniqueViolation } from "../../../platform/d1";
import { batchGuard, guardFailed, inJson } from "../../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../../platform/errors";
import type { HandoverRef } from "../custody";
import { type Asset, type AssetRow, assetFieldDefs } from "../view";
import { type AssetChange, type AssetWrite, commitAssetWrite } from "../write";
import { actionPlan } from "./actions";
import type { BulkInput, Verdict } from "./input";

export { type BulkInput, MAX_BULK_IDS } from "./input";

const ATTEMPTS = 3;

export interface BulkItemResult {
  id: string;
  ok: boolean;
  status: number;
  item?: Asset;
  error?: { message: string; code: string; details?: unknown; requestId: string };
}

interface Plan {
  verdicts: Map<string, Verdict>;
  write: AssetWrite | null;
  handovers: HandoverRef[];
}

/** The per-asset answers and the pending hand-overs the write recorded (checkout and check-in). */
export interface BulkOutcome {
  items: BulkItemResult[];
  handovers: HandoverRef[];
}

/** The envelope the single route's error handler would have written (same requestId: one request). */
const errorOf = (e: ApiError, requestId: string) => ({
  message: e.message,
  code: e.code,
  ...(e.details === undefined ? {} : { details: e.details }),
  requestId,
});

/**
 * One action on up to 100 assets. Each asset gets what the single route would have answered (ok,
 * or the same error), and the assets that pass are written as ONE asset write (the recipe: guards,
 * set-based row writes, health marks, status events, timeline, audit, outbox, then health settle):
 * a fixed number of reads and one batch whatever the count. The batch is guarded on the snapshot
 * it was planned from (every asset's `updatedAt`); if another request changed one meanwhile, the
 * plan is made again from fresh reads (up to 3 times, then those assets get 409).
 */
export async function bulkAssets(ctx: ServiceCtx, input: BulkInput, requestId: string): Promise<BulkOutcome> {
  const resultsOf = (plan: Plan, committed = true) => ({
    items: results(input, plan, requestId),
    handovers: committed ? plan.handovers : [],
  });
  let plan: Plan | null = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    plan = await planBulk(ctx, input);
    if (!plan.write) return resultsOf(plan);
    try {
      await commitAssetWrite(ctx, plan.write);
      return resultsOf(plan);
    } catch (err) {
      if (!guardFailed(err) && !isUniqueViolation(err)) throw err;
    }
  }
  const raced = conflict("The items changed while this request ran; retry");
  for (const [id, v] of plan!.verdicts) if ("change" in v && v.change) plan!.verdicts.set(id, { error: raced });
  return resultsOf(plan!, false);
}

function results(input: BulkInput, plan: Plan, requestId: string): BulkItemResult[] {
  return input.ids.map((id) => {
    const v = plan.verdicts.get(id)!;
    if ("error" in v) return { id, ok: false, status: v.error.status, error: errorOf(v.error, requestId) };
    if (input.action === "delete") return { id, ok: true, status: 204 };
    return { id, ok: true, status: 200, item: v.asset };
  });
}

/** Reads once, decides per asset, builds the one write. */
async function planBulk(ctx: ServiceCtx, input: BulkInput): Promise<Plan> {
  const { db } = ctx;
  const at = nowIso();
  const rows = await db.select().from(assets).where(inJson(assets.id, input.ids)).all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const defs = await assetFieldDefs(db);
  const verdicts = new Map<string, Verdict>();
  const fail = (id: string, error: ApiError) => verdicts.set(id, { error });
  const restoring = input.action === "restore";
  // 404 exactly as the single route: restore looks among deleted assets, the others among live ones.
  const found: AssetRow[] = [];
  for (const id of input.ids) {
    const row = byId.get(id);
    if (!row || (row.deletedAt === null) === restoring)
      fail(id, notFound(restoring ? "Deleted inventory item" : "Inventory item"));
    else found.push(row);
  }
  const action = await actionPlan(ctx, input, found, at, defs).catch((err: unknown) => {
    if (!(err instanceof ApiError)) throw err;
    return err; // a request-level refusal (e.g. an inactive person) is every asset's answer
  });
  if (action instanceof ApiError) {
    for (const row of found) fail(row.id, action);
    return { verdicts, write: null, handovers: [] };
  }
  const changed: AssetRow[] = [];
  for (const row of found) {
    const v = action.decide(row);
    verdicts.set(row.id, v);
    if ("change" in v && v.change) changed.push(row);
  }
  if (changed.length === 0) return { verdicts, write: null, handovers: [] };
  const ids = changed.map((r) => r.id);
  // The hand-over of what moves: refused as a whole (e.g. items under two category agreements),
  // every asset that would have moved gets that answer and nothing is written.
  const pending = await (action.acceptance?.(ids, changed) ?? Promise.resolve([])).catch((err: unknown) => {
    if (!(err instanceof ApiError)) throw err;
    return err;
  });
  if (pending instanceof ApiError) {
    for (const row of changed) fail(row.id, pending);
    return { verdicts, write: null, handovers: [] };
  }
  const snapshot = JSON.stringify(changed.map((r) => [r.id, r.updatedAt]));
  const changes = changed.map((r) => (verdicts.get(r.id) as { change: AssetChange }).change);
  return {
    verdicts,
    write: {
      at,
      guards: [
        batchGuard(
          db,
          "bulk_snapshot",
          sql`(SELECT count(*) FROM ${assets} JOIN json_each(${snapshot}) j
            ON ${assets.id} = j.value ->> '$[0]' AND ${assets.updatedAt} = j.value ->> '$[1]') = ${changed.length}`,
        ),
        ...action.guards(ids),
        ...pending.flatMap((p) => p.rider.guards),
      ],
      writes: [...action.writes(ids, changed), ...pending.flatMap((p) => p.rider.writes)],
      changes,
    },
    handovers: pending.map((p) => p.handover),
  };
}
