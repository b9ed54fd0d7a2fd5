import { sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { type ApiError, conflict, notFound } from "../../platform/errors";
import { checkinAllForPeople, compileAssetWrite } from "../assets";
import { liveDefinitions } from "../custom-fields";
import { isSeatRace, releaseSeatsOf } from "../licences";
import { isStockHoldingRace, returnAllForPeople, strandedStock } from "../stock";
import { AUDITED_FIELDS } from "./service";
import { DEACTIVATION_REASON } from "./update";
import { type PersonRow, toPerson } from "./view";

export const MAX_BULK_PEOPLE = 100;

export interface BulkPersonResult {
  id: string;
  ok: boolean;
  status: number;
  item?: ReturnType<typeof toPerson>;
  error?: { message: string; code: string; details?: unknown; requestId: string };
}

/**
 * Deactivates up to 100 people as PATCH /people/{id} `{status: "deactivated"}` would, one by one:
 * every asset they hold is checked in first (history, timeline, events), all in ONE batch built
 * from a fixed number of reads. Unknown or deleted people get 404; already deactivated ones are
 * answered 200 unchanged. A concurrent change to these people or their assets is a 409 for the
 * people that were to change (retry).
 */
export async function bulkDeactivatePeople(ctx: ServiceCtx, ids: string[], requestId: string) {
  const { db, actor } = ctx;
  const rows = await db.select().from(people).where(inJson(people.id, ids)).all();
  const byId = new Map(rows.filter((r) => r.deletedAt === null).map((r) => [r.id, r]));
  const defs = await liveDefinitions(db, "person");
  const at = nowIso();
  // Stock that cannot go back (its location deleted) refuses that person's deactivation alone.
  const stranded = await strandedStock(
    db,
    [...byId.values()].filter((r) => r.status === "active").map((r) => r.id),
  );
  const toChange = [...byId.values()].filter((r) => r.status === "active" && !stranded.has(r.id));
  const after = new Map<string, PersonRow>(toChange.map((r) => [r.id, { ...r, status: "deactivated", updatedAt: at }]));
  let raced: ApiError | null = null;
  if (toChange.length > 0) {
    const changeIds = toChange.map((r) => r.id);
    const checkin = await checkinAllForPeople(ctx, changeIds, DEACTIVATION_REASON);
    const stockBack = await returnAllForPeople(ctx, changeIds, DEACTIVATION_REASON);
    const seatsBack = await releaseSeatsOf(ctx, "person", changeIds, DEACTIVATION_REASON);
    const heldBy = new Map<string, string[]>();
    for (const c of checkin.changes) {
      const personId = String(c.before?.assigneeId ?? "");
      heldBy.set(personId, [...(heldBy.get(personId) ?? []), c.after.id]);
    }
    const snapshot = JSON.stringify(toChange.map((r) => [r.id, r.updatedAt]));
    try {
      const write = joinWrites(
        {
          guards: [
            batchGuard(
              db,
              "people_state",
              sql`(SELECT count(*) FROM ${people} JOIN json_each(${snapshot}) j ON ${people.id} = j.value ->> '$[0]'
                AND ${people.updatedAt} = j.value ->> '$[1]' AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL) = ${toChange.length}`,
            ),
          ],
        },
        compileAssetWrite(ctx, checkin),
        stockBack.write,
        seatsBack,
        {
          writes: [db.update(people).set({ status: "deactivated", updatedAt: at }).where(inJson(people.id, changeIds))],
          audits: toChange.map((r) => ({
            entityType: "person",
            entityId: r.id,
            action: "status",
            actor,
            at,
            before: { ...r },
            after: { ...after.get(r.id)! },
            fields: AUDITED_FIELDS,
          })),
          events: toChange.map((r) => ({
            type: "person.deactivated",
            subjectId: r.id,
            actor,
            payload: { ...toPerson(after.get(r.id)!, defs), checkedInAssetIds: heldBy.get(r.id) ?? [] },
          })),
        },
      );
      await commitWrite(ctx, write);
    } catch (err) {
      if (
        !guardFailed(err, "people_state") &&
        !guardFailed(err, "people_assets_changed") &&
        !isStockHoldingRace(err) &&
        !isSeatRace(err)
      )
        throw err;
      raced = conflict("The person or their assets changed while this request ran; retry");
    }
  }
  const envelope = (e: ApiError) => ({
    message: e.message,
    code: e.code,
    ...(e.details === undefined ? {} : { details: e.details }),
    requestId,
  });
  return ids.map((id): BulkPersonResult => {
    const row = byId.get(id);
    if (!row) {
      const e = notFound("Person");
      return { id, ok: false, status: e.status, error: envelope(e) };
    }
    const refusal = stranded.get(id);
    if (refusal) return { id, ok: false, status: refusal.status, error: envelope(refusal) };
    if (raced && after.has(id)) return { id, ok: false, status: raced.status, error: envelope(raced) };
    return { id, ok: true, status: 200, item: toPerson(after.get(id) ?? row, defs) };
  });
}
