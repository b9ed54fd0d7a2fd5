import { and, eq } from "drizzle-orm";
import { requests } from "../../db/tenant/requests";
import { asRider, joinWrites } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { type BatchRider, guardFailed } from "../../platform/d1-write";
import { ApiError, conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { checkout, type HandoverRef } from "../assets";
import { createBooking } from "../bookings";
import { bookKit, checkoutKit } from "../kits";
import { issueStock } from "../stock";
import { notificationRows, stepWrite } from "./notify";
import type { Request } from "./schemas";
import { closeRequest, notOpen, openGuard, type RequestsCtx, requireRequest } from "./service";
import { stockIssuePlan } from "./stock";
import { type RequestRow, toRequest } from "./view";

/**
 * Approves an open request: the checkout, booking or stock issue it asks for and the request's move
 * to `approved` (its event and the requester's notification) are ONE batch. The request's guard
 * makes the first answer the only one (two admins approving, approve racing decline); the verb's
 * own guards make a direct checkout, booking or issue that won meanwhile refuse the approval with
 * its reason (409: checked out, booked, not enough stock, no longer available), and the request
 * then stays open.
 */
export async function approveRequest(
  ctx: RequestsCtx,
  id: string,
  input: { note?: string; locationId?: string },
): Promise<Request & { handover: HandoverRef | null }> {
  const current = await requireRequest(ctx, id);
  if (current.status !== "open") throw notOpen(current);
  if (input.locationId && current.kind !== "issue")
    throw invalidField("body.locationId", "only a stock request is issued from a location");
  const stock =
    current.kind === "issue"
      ? await stockIssuePlan(ctx.db, current, input.locationId).catch(async (err: unknown) => {
          throw await refusal(ctx, id, err);
        })
      : null;
  const now = nowIso();
  const next: RequestRow = {
    ...current,
    status: "approved",
    decidedBy: ctx.actor,
    decidedAt: now,
    decisionNote: input.note?.trim() || null,
    bookingId: current.kind === "booking" ? newId("booking") : null,
    ...(stock ? { locationId: stock.locationId, stockMovementId: stock.movementId } : {}),
    updatedAt: now,
  };
  const rows = notificationRows("approved", next, [current.requesterUserId], now);
  // The approval is a write of the recipe that rides on the verb's batch (`asRider`); its
  // after-commit work (the push) runs once the verb committed.
  const approval = joinWrites(
    {
      guards: [openGuard(ctx, id)],
      writes: [
        ctx.db
          .update(requests)
          .set(next)
          .where(and(eq(requests.id, id), eq(requests.status, "open"))),
      ],
    },
    stepWrite(ctx, next, rows),
  );
  const { rider, afterCommit } = asRider(ctx, approval);
  let done: Awaited<ReturnType<typeof fulfil>>;
  try {
    done = await fulfil(ctx, next, rider);
  } catch (err) {
    if (guardFailed(err, "request_open")) throw notOpen(await requireRequest(ctx, id));
    throw await refusal(ctx, id, err);
  }
  await afterCommit();
  // A checkout under an agreement recorded its pending hand-over in the same batch.
  const handover = done && "handover" in done ? done.handover : null;
  return { ...toRequest(next), handover };
}

/**
 * Why the verb refused. A verb's guards run before the request's, so an approval that lost to
 * another answer may fail on them first (the units the winner issued are gone): the request's
 * state then is the reason. A stock item deleted meanwhile is no longer available (409, not 404).
 */
async function refusal(ctx: RequestsCtx, id: string, err: unknown) {
  if (!(err instanceof ApiError) || (err.code !== "conflict" && err.code !== "not_found")) return err;
  const now = await requireRequest(ctx, id);
  if (now.status !== "open") return notOpen(now);
  if (err.code === "not_found" && now.kind === "issue")
    return conflict("The stock item was deleted; it can no longer be issued", { reason: "unavailable" });
  return err;
}

/** The checkout, booking or stock issue a request asks for, carrying the request's own statements. */
async function fulfil(ctx: RequestsCtx, r: RequestRow, rider: BatchRider) {
  const personId = r.personId;
  if (r.kind === "issue")
    return issueStock(
      ctx,
      r.stockItemId!,
      { locationId: r.locationId!, quantity: r.quantity!, personId, note: `Request ${r.id}` },
      { rider, movementId: r.stockMovementId! },
    );
  const dueBackAt = r.dueBackAt ?? undefined;
  if (r.kind === "checkout" && r.assetId)
    return checkout(ctx, r.assetId, { personId, dueBackAt }, { reason: "request", meta: { requestId: r.id }, rider });
  if (r.kind === "checkout") return checkoutKit(ctx, r.kitId!, { personId, dueBackAt }, rider);
  const booking = { id: r.bookingId!, personId, startsAt: r.startsAt!, endsAt: r.endsAt!, notes: r.note };
  if (r.assetId) return createBooking(ctx, { ...booking, assetIds: [r.assetId] }, rider);
  return bookKit(ctx, r.kitId!, booking, rider);
}

/** Declines an open request with an optional note; the requester is told. */
export async function declineRequest(ctx: RequestsCtx, id: string, input: { note?: string }): Promise<Request> {
  const current = await requireRequest(ctx, id);
  if (current.status !== "open") throw notOpen(current);
  const now = nowIso();
  const next: RequestRow = {
    ...current,
    status: "declined",
    decidedBy: ctx.actor,
    decidedAt: now,
    decisionNote: input.note?.trim() || null,
    updatedAt: now,
  };
  return closeRequest(ctx, current, next, [current.requesterUserId]);
}
