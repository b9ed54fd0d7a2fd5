import type { EventHandler } from "../../events/consumer";
import { commitWrite } from "../../events/write";
import { releaseSeatsOf } from "./seats";

export const LICENCE_ACTOR = "system:licences";

/**
 * Seats of retired assets are released (products set to `hold` keep them), each with
 * licence_seat.released. The assets module sits below this one (docs/architecture.md#module-tiers),
 * so its retirement cannot join this write; the Queue consumer runs it from asset.status_changed
 * instead. Idempotent: only seats still open are released, and a retry finds none.
 */
export const releaseSeatsOfRetiredAssets: EventHandler = async ({ db, tenant }, events) => {
  const retired = [
    ...new Set(
      events
        .filter((e) => e.type === "asset.status_changed" && e.payload.toStatus === "retired" && e.subjectId)
        .map((e) => e.subjectId!),
    ),
  ];
  if (!retired.length) return;
  const ctx = { db, actor: LICENCE_ACTOR, tenantId: tenant.id };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await commitWrite(ctx, await releaseSeatsOf(ctx, "asset", retired, "asset_retired"));
      return;
    } catch (err) {
      // A seat unassigned meanwhile: read again.
      if (attempt === 2 || !String(err).includes("guard:licence_seats_open")) throw err;
    }
  }
};
