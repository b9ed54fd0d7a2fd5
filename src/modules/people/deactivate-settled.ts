import { and, eq, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { people } from "../../db/tenant/people";
import { stockMovements } from "../../db/tenant/stock";
import { joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { batchGuard } from "../../platform/d1-write";
import { releaseSeatsOf } from "../licences";
import { personUpdated } from "./changes";
import { getPerson, live } from "./service";
import { DEACTIVATION_REASON } from "./update";
import { presentPerson } from "./view";

/** Guard name of `settledDeactivation`: the person holds something again, or changed status meanwhile. */
export const SETTLED_GUARD = "person_not_settled";

/**
 * The deactivation of a person who holds nothing (an offboarding case whose items all came back,
 * docs/offboarding.md): the person row and its `person.deactivated` event, WITHOUT the check-in and
 * stock-return cascade of a PATCH, and a guard that fails the batch should anything be held again.
 * Their licence seats are released as on any deactivation (unless the product holds them,
 * docs/licences.md#when-holders-leave). A Write for the caller to join with its own. Null when the
 * person is already deactivated.
 */
export async function settledDeactivation(ctx: ServiceCtx, id: string, at: string): Promise<Write | null> {
  const cur = await getPerson(ctx, id);
  if (cur.status === "deactivated") return null;
  const next = { ...cur, status: "deactivated" as const, updatedAt: at };
  const out = await presentPerson(ctx.db, next);
  const { events, audit } = personUpdated(cur, next, out, ctx.actor, at, []);
  const seatsBack = await releaseSeatsOf(ctx, "person", [id], DEACTIVATION_REASON);
  return joinWrites(seatsBack, {
    guards: [
      batchGuard(
        ctx.db,
        SETTLED_GUARD,
        sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${id} AND ${people.deletedAt} IS NULL AND ${people.status} = 'active')
          AND NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.holderKind} = 'person' AND ${assets.holderId} = ${id} AND ${assets.deletedAt} IS NULL)
          AND NOT EXISTS (SELECT 1 FROM ${stockMovements} WHERE ${stockMovements.personId} = ${id} AND ${stockMovements.openQuantity} > 0)`,
      ),
    ],
    writes: [
      ctx.db
        .update(people)
        .set({ status: "deactivated", updatedAt: at })
        .where(and(eq(people.id, id), live)),
    ],
    audits: [audit],
    events,
  });
}
