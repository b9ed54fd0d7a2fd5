import type { requests } from "../../db/tenant/requests";
import type { Request } from "./schemas";

export type RequestRow = typeof requests.$inferSelect;

export const toRequest = (r: RequestRow): Request => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  requesterUserId: r.requesterUserId,
  personId: r.personId,
  assetId: r.assetId,
  kitId: r.kitId,
  stockItemId: r.stockItemId,
  quantity: r.quantity,
  locationId: r.locationId,
  stockMovementId: r.stockMovementId,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
  dueBackAt: r.dueBackAt,
  note: r.note,
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt,
  decisionNote: r.decisionNote,
  bookingId: r.bookingId,
  remindedAt: r.remindedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
