import { and, eq } from "drizzle-orm";
import { requests } from "../../db/tenant/requests";
import { nowIso } from "../../platform/clock";
import { guardFailed, type BatchRider } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { checkout } from "../assets";
import { createBooking } from "../bookings";
import { bookKit, checkoutKit } from "../kits";
import { notificationRows, push, stepStatements } from "./notify";
import { closeRequest, notOpen, openGuard, requireRequest, type RequestsCtx } from "./service";
import { toRequest, type RequestRow } from "./view";
import type { Request } from "./schemas";

/**
 * Approves an open request: the checkout or booking it asks for and the request's move to
 * `approved` (its event and the requester's notification) are ONE batch. The request's guard makes
 * the first answer the only one (two admins approving, approve racing decline); the verb's own
 * guards make a direct checkout or booking that won meanwhile refuse the approval with its reason
 * (409: checked out, booked, no longer available), and the request then stays open.
 */
export async function approveRequest(ctx: RequestsCtx, id: string, input: { note?: string }): Promise<Request> {
  const current = await requireRequest(ctx, id);
  if (current.status !== "open") throw notOpen(current);
  const now = nowIso();
  const bookingId = current.kind === "booking" ? newId("booking") : null;
  const next: RequestRow = {
    ...current,
    status: "approved",
    decidedBy: ctx.actor,
    decidedAt: now,
    decisionNote: input.note?.trim() || null,
    bookingId,
    updatedAt: now,
  };
  const rows = notificationRows("approved", next, [current.requesterUserId], now);
  const rider: BatchRider = {
    guards: [openGuard(ctx, id)],
    writes: [
      ctx.db
        .update(requests)
        .set(next)
        .where(and(eq(requests.id, id), eq(requests.status, "open"))),
      ...stepStatements(ctx.db, ctx.actor, next, rows),
    ],
  };
  try {
    await fulfil(ctx, current, bookingId, rider);
  } catch (err) {
    if (!guardFailed(err, "request_open")) throw err;
    throw notOpen(await requireRequest(ctx, id));
  }
  await push(ctx.env, ctx.tenantId, rows);
  return toRequest(next);
}

/** The checkout or booking a request asks for, carrying the request's own statements. */
async function fulfil(ctx: RequestsCtx, r: RequestRow, bookingId: string | null, rider: BatchRider) {
  const personId = r.personId;
  const dueBackAt = r.dueBackAt ?? undefined;
  if (r.kind === "checkout" && r.assetId)
    return checkout(ctx, r.assetId, { personId, dueBackAt }, { reason: "request", meta: { requestId: r.id }, rider });
  if (r.kind === "checkout") return checkoutKit(ctx, r.kitId!, { personId, dueBackAt }, rider);
  const booking = { id: bookingId!, personId, startsAt: r.startsAt!, endsAt: r.endsAt!, notes: r.note };
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
