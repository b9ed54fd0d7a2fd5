import { and, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import { people } from "../../../db/tenant/people";
import { offboardingRefusal, requirePerson } from "../../../domain/catalog";
import type { ServiceCtx } from "../../../http/service-context";
import { batchGuard, inJson, insertJsonRows } from "../../../platform/d1-write";
import { conflict, invalidField } from "../../../platform/errors";
import {
  type AssignmentRow,
  askAcceptance,
  askReturns,
  blockingBookingsOf,
  checkinAssetSet,
  checkinChange,
  checkoutAssetSet,
  checkoutChange,
  checkoutRefusal,
  intoBookingRefusal,
  noBlockingBookingOf,
  notCheckedOut,
  personHolder,
  personRefusal,
} from "../custody";
import { canMove, checkStatusInput, forbiddenMove, statusAssetSet, statusMoveChange } from "../status";
import { type AssetRow, toAsset } from "../view";
import { type ActionPlan, changeVerdict, type Defs, restorePlan, updatePlan } from "./edits";
import type { BulkInput } from "./input";

/**
 * What each bulk action decides per asset and writes for the assets that pass: the single routes'
 * rules, set-based (src/modules/assets/bulk/service/service.ts runs the plan).
 */

export async function actionPlan(
  ctx: ServiceCtx,
  input: BulkInput,
  found: AssetRow[],
  at: string,
  defs: Defs,
): Promise<ActionPlan> {
  const { db, actor } = ctx;
  const none = () => [];
  switch (input.action) {
    case "status": {
      const checked = checkStatusInput(input, at);
      return {
        decide: (row) =>
          canMove(row.status, checked.toStatus)
            ? changeVerdict(statusMoveChange(row, checked, at, defs).change)
            : { error: forbiddenMove(row, checked.toStatus) },
        guards: none,
        writes: (ids, rows) => [
          db
            .update(assets)
            .set(statusAssetSet(statusMoveChange(rows[0]!, checked, at, defs).next))
            .where(inJson(assets.id, ids)),
        ],
      };
    }
    case "checkout": {
      const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
      if (dueBackAt && dueBackAt <= at) throw invalidField("body.dueBackAt", "must be in the future");
      const person = await requirePerson(db, input.personId);
      const refusal = personRefusal(person) ?? (await offboardingRefusal(db, person.id));
      if (refusal) throw refusal;
      // The bookings rule of the single route, per asset (one read for all of them).
      const blocking = await blockingBookingsOf(
        db,
        found.map((r) => r.id),
        at,
        dueBackAt,
      );
      const made = new Map<string, AssignmentRow>();
      return {
        decide: (row) => {
          const no =
            checkoutRefusal(row) ??
            intoBookingRefusal(
              blocking.filter((b) => b.assetId === row.id),
              dueBackAt,
            );
          if (no) return { error: no };
          const { assignment, change } = checkoutChange({
            asset: row,
            holder: personHolder(person.id, person.name),
            dueBackAt,
            at,
            actor,
            defs,
          });
          made.set(row.id, assignment);
          return changeVerdict(change);
        },
        guards: (ids) => [
          batchGuard(
            db,
            "person_active",
            sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${person.id} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)
              AND ${noBlockingBookingOf(ids, at, dueBackAt)}`,
          ),
        ],
        // One acceptance for everything handed over together.
        acceptance: async (ids) => {
          const pending = await askAcceptance(ctx, {
            kind: "checkout",
            personId: person.id,
            assetIds: ids,
            dueBackAt,
            at,
          });
          return pending ? [pending] : [];
        },
        writes: (ids) => [
          db
            .update(assets)
            .set(checkoutAssetSet(personHolder(person.id, person.name), dueBackAt, at))
            .where(inJson(assets.id, ids)),
          insertJsonRows(
            db,
            assignments,
            ids.map((id) => made.get(id)!),
          ),
        ],
      };
    }
    case "checkin": {
      const notes = input.notes?.trim() || null;
      const assigned = found.filter((r) => r.status === "assigned").map((r) => r.id);
      const open = assigned.length
        ? await db
            .select()
            .from(assignments)
            .where(and(inJson(assignments.assetId, assigned), isNull(assignments.checkedInAt)))
            .all()
        : [];
      const openOf = new Map(open.map((a) => [a.assetId, a]));
      return {
        decide: (row) => {
          if (row.status !== "assigned" || !row.holderId) return { error: notCheckedOut(row) };
          const assignment = openOf.get(row.id);
          if (!assignment) return { error: conflict("The asset has no open assignment") };
          return changeVerdict(checkinChange({ asset: row, assignment, reason: "checkin", notes, at, actor, defs }));
        },
        guards: none,
        // One return acceptance per person the assets come back from (an acceptance has one signer).
        acceptance: (_ids, rows) =>
          askReturns(
            ctx,
            rows.map((r) => ({ assetId: r.id, personId: r.assigneeId })),
            at,
          ),
        writes: (ids) => [
          db.update(assets).set(checkinAssetSet(at)).where(inJson(assets.id, ids)),
          db
            .update(assignments)
            .set({ checkedInAt: at, checkedInBy: actor, checkinReason: "checkin", checkinNotes: notes })
            .where(and(inJson(assignments.assetId, ids), isNull(assignments.checkedInAt))),
        ],
      };
    }
    case "delete":
      return {
        decide: (row) =>
          row.status === "assigned"
            ? { error: conflict("The asset is checked out; check it in before deleting it", { status: row.status }) }
            : changeVerdict({
                before: null,
                after: toAsset(row, defs),
                action: "delete",
                auditFields: [],
                event: { type: "asset.deleted", payload: { deletedAt: at } },
                removesHealth: true,
              }),
        guards: none,
        writes: (ids) => [
          db.update(assets).set({ deletedAt: at, deletedBy: actor, updatedAt: at }).where(inJson(assets.id, ids)),
        ],
      };
    case "restore":
      return restorePlan(ctx, found, at, defs);
    case "update":
      return updatePlan(ctx, input, found, at, defs);
  }
}
