import { and, eq, sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict } from "../../platform/errors";
import { checkinAllForPerson, compileAssetWrite } from "../assets";
import { checkCustomFieldValues } from "../custom-fields";
import { isSeatRace, releaseSeatsOf } from "../licences";
import { isStockHoldingRace, returnAllForPeople } from "../stock";
import { nextPersonRow, personUpdated, samePerson } from "./changes";
import type { UpdatePersonInput } from "./schemas";
import { getPerson, live, locationGuard, managerGuard, personTaken, rethrowGuard } from "./service";
import { presentPerson } from "./view";

/** Why the assignments closed by a deactivation ended (assignments.checkin_reason, timeline data). */
export const DEACTIVATION_REASON = "person_deactivated";

const concurrent = () => conflict("The person or their assets changed while this request ran; retry");

/**
 * Updates a person. `status: deactivated` first checks every asset the person holds back in
 * (assignment closed, timeline UNASSIGNED, asset.checked_in) and deactivates in the same batch;
 * `status: active` brings them back. Guards make the batch apply only to the state it was computed
 * from, so a concurrent checkout or status change gives a 409 instead of a half-done deactivation.
 */
export async function updatePerson(ctx: ServiceCtx, id: string, patch: UpdatePersonInput) {
  const cur = await getPerson(ctx, id);
  const guards = [
    ...(patch.locationId !== undefined && patch.locationId !== cur.locationId
      ? await locationGuard(ctx.db, patch.locationId)
      : []),
    ...(patch.managerId !== undefined && patch.managerId !== cur.managerId
      ? await managerGuard(ctx.db, patch.managerId, id)
      : []),
  ];
  const customFields =
    patch.customFields !== undefined
      ? await checkCustomFieldValues(ctx.db, "person", patch.customFields, cur.customFields)
      : cur.customFields;
  const now = nowIso();
  const next = nextPersonRow(cur, patch, customFields, now);
  const statusChange = next.status !== cur.status ? next.status : null;
  // Nothing to write (e.g. deactivating someone already deactivated): no event, no audit row.
  if (samePerson(cur, next)) return presentPerson(ctx.db, cur);
  const checkin = statusChange === "deactivated" ? await checkinAllForPerson(ctx, id, DEACTIVATION_REASON) : null;
  const checkedInAssetIds = checkin?.changes.map((c) => c.after.id) ?? [];
  // The same rule for stock they hold: every open returnable issue comes back (docs/stock.md#who-holds-what).
  const stockBack = statusChange === "deactivated" ? await returnAllForPeople(ctx, [id], DEACTIVATION_REASON) : null;
  // And their licence seats, unless the product holds them (docs/licences.md#when-holders-leave).
  const seatsBack =
    statusChange === "deactivated" ? await releaseSeatsOf(ctx, "person", [id], DEACTIVATION_REASON) : null;

  const out = await presentPerson(ctx.db, next);
  const { events, audit } = personUpdated(cur, next, out, ctx.actor, now, checkedInAssetIds);

  const { deletedAt: _d, deletedBy: _b, id: _id, createdAt: _c, ...set } = next;
  const write = joinWrites(
    // The person is still live and in the status this update was computed from.
    {
      guards: [
        batchGuard(
          ctx.db,
          "person_state",
          sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${id} AND ${people.deletedAt} IS NULL AND ${people.status} = ${cur.status})`,
        ),
        ...guards,
      ],
    },
    checkin ? compileAssetWrite(ctx, checkin) : null,
    stockBack?.write,
    seatsBack,
    {
      writes: [
        ctx.db
          .update(people)
          .set(set)
          .where(and(eq(people.id, id), live)),
      ],
      audits: [audit],
      events,
    },
  );
  const batch = commitWrite(ctx, write, (err) => {
    if (
      guardFailed(err, "person_state") ||
      guardFailed(err, "person_assets_changed") ||
      isStockHoldingRace(err) ||
      isSeatRace(err)
    )
      throw concurrent();
    return rethrowGuard(err);
  });
  await batch.catch((err) => {
    throw isUniqueViolation(err) ? personTaken(next)(err) : err;
  });
  return out;
}
