import type { DomainEvent } from "../../events/types";

/**
 * The webhook event catalogue: every event type the modules record in the outbox, under the name
 * integrators subscribe to. `resource` names the object `data` carries (the resource after the
 * change); `extra` documents what is added to it. Update events add `changes`, the changed fields.
 */
export interface CatalogueEntry {
  type: string;
  description: string;
  resource: Resource;
  extra?: string;
}

export type Resource =
  | "asset"
  | "person"
  | "category"
  | "location"
  | "customField"
  | "layout"
  | "session"
  | "sessionSchedule"
  | "maintenanceSchedule"
  | "maintenanceLog"
  | "maintenanceReminder"
  | "purged"
  | "feedback"
  | "apiKey"
  | "user"
  | "invite"
  | "verification"
  | "booking"
  | "kit"
  | "request"
  | "stockItem"
  | "stockMovement"
  | "stockLevel"
  | "offboardingCase"
  | "scimUser"
  | "scimGroup"
  | "scimToken"
  | "scimGroupMapping"
  | "agreement"
  | "handover"
  | "receipt"
  | "licenceProduct"
  | "licenceLot"
  | "licenceSeat"
  | "licenceReview"
  | "code"
  | "tagBatch";

const CHANGES = "`changes`: the names of the fields that changed.";
/** "An asset", "A kit". */
const aNoun = (noun: string) => `${/^[aeiou]/.test(noun) ? "An" : "A"} ${noun}`;
const crud = (
  prefix: string,
  resource: Resource,
  noun: string,
  opts: { restore?: boolean; purge?: boolean } = {},
): CatalogueEntry[] => [
  { type: `${prefix}.created`, description: `${aNoun(noun)} was created.`, resource },
  { type: `${prefix}.updated`, description: `${aNoun(noun)} was updated.`, resource, extra: CHANGES },
  {
    type: `${prefix}.deleted`,
    description: `${aNoun(noun)} was deleted${opts.restore ? " (moved to the trash)" : ""}.`,
    resource,
    extra: opts.restore ? "`deletedAt`." : undefined,
  },
  ...(opts.restore
    ? [{ type: `${prefix}.restored`, description: `${aNoun(noun)} was restored from the trash.`, resource }]
    : []),
  ...(opts.purge
    ? [
        {
          type: `${prefix}.purged`,
          description: `A trashed ${noun} was permanently deleted.`,
          resource: "purged" as const,
        },
      ]
    : []),
];

export const CATALOGUE: readonly CatalogueEntry[] = [
  ...crud("asset", "asset", "asset", { restore: true, purge: true }),
  {
    type: "asset.checked_out",
    description: "An asset was checked out to a person, a location or another asset.",
    resource: "asset",
    extra:
      "`assignment`: the new assignment; `target`: who or what holds it (`kind` person, location or asset, `id`, `name`); `requestId` when a request's approval made it.",
  },
  {
    type: "asset.checked_in",
    description: "An asset was checked in.",
    resource: "asset",
    extra: "`assignment`: the closed assignment.",
  },
  {
    type: "asset.status_changed",
    description: "An asset moved to another status.",
    resource: "asset",
    extra: '`changes` (`["status"]`), `fromStatus`, `toStatus`, `reason`, `meta`.',
  },
  ...crud("person", "person", "person", { restore: true, purge: true }),
  {
    type: "person.deactivated",
    description: "A person was deactivated (their assets were checked in first).",
    resource: "person",
    extra: "`checkedInAssetIds`.",
  },
  { type: "person.activated", description: "A deactivated person was activated again.", resource: "person" },
  ...crud("category", "category", "category", { restore: true, purge: true }),
  ...crud("location", "location", "location", { restore: true, purge: true }),
  ...crud("custom_field", "customField", "custom field definition", { restore: true, purge: true }),
  ...crud("layout", "layout", "layout"),
  ...crud("session", "session", "inventory session"),
  { type: "session.started", description: "An inventory session started.", resource: "session" },
  {
    type: "session.completed",
    description: "An inventory session was completed.",
    resource: "session",
    extra: "`report`: the session report.",
  },
  {
    type: "session.cancelled",
    description: "An inventory session was cancelled.",
    resource: "session",
    extra: "`report`: the session report at cancellation.",
  },
  ...crud("session_schedule", "sessionSchedule", "recurring session schedule"),
  ...crud("maintenance_schedule", "maintenanceSchedule", "maintenance schedule"),
  {
    type: "maintenance.completed",
    description: "Maintenance was completed (a maintenance log was recorded).",
    resource: "maintenanceLog",
    extra: "`schedule`: the schedule it completes, or null.",
  },
  {
    type: "maintenance.due",
    description: "A maintenance schedule is due soon or today (once per workspace day).",
    resource: "maintenanceReminder",
  },
  {
    type: "maintenance.overdue",
    description: "A maintenance schedule is overdue (once per workspace day).",
    resource: "maintenanceReminder",
  },
  {
    type: "maintenance_log.updated",
    description: "A maintenance log was updated.",
    resource: "maintenanceLog",
    extra: CHANGES,
  },
  { type: "maintenance_log.deleted", description: "A maintenance log was deleted.", resource: "maintenanceLog" },
  { type: "booking.created", description: "Inventory items were booked for a person.", resource: "booking" },
  {
    type: "booking.updated",
    description: "A booking was moved or re-noted, or some of its items were returned.",
    resource: "booking",
  },
  { type: "booking.cancelled", description: "A reserved booking was cancelled.", resource: "booking" },
  {
    type: "booking.picked_up",
    description: "A booking was picked up: every item checked out with dueBackAt = endsAt.",
    resource: "booking",
  },
  { type: "booking.returned", description: "Every item of a booking was returned.", resource: "booking" },
  {
    type: "booking.pickup_due",
    description: "A reserved booking starts within 24 hours (once per booking; sent by the reminder cron).",
    resource: "booking",
    extra: "`recipients` and `notificationIds`: the users notified in the app and their notifications.",
  },
  {
    type: "booking.overdue",
    description: "A picked-up booking's end has passed with items still out (once per booking).",
    resource: "booking",
    extra: "`recipients` and `notificationIds`: the users notified in the app and their notifications.",
  },
  ...crud("kit", "kit", "kit", { restore: true, purge: true }),
  {
    type: "kit.checked_out",
    description: "Every item of a kit was checked out (each item's asset.checked_out is sent too).",
    resource: "kit",
  },
  { type: "kit.checked_in", description: "A kit's checked-out items were checked in.", resource: "kit" },
  {
    type: "request.created",
    description: "Someone asked for an asset or a kit, or for units of a stock item (`stockItemId`, `quantity`).",
    resource: "request",
  },
  {
    type: "request.approved",
    description: "A request was approved; its checkout, booking or stock issue was made in the same write.",
    resource: "request",
    extra:
      "`bookingId` for a booking request; the checkout's asset.checked_out carries `requestId`; a stock request's `stockMovementId` and `locationId` name the issue (its stock.issued is sent too).",
  },
  { type: "request.declined", description: "A request was declined.", resource: "request" },
  { type: "request.cancelled", description: "The requester cancelled their request.", resource: "request" },
  {
    type: "request.expired",
    description: "A request went unanswered twice the workspace's requestExpiryDays and expired.",
    resource: "request",
  },
  ...crud("stock_item", "stockItem", "stock item", { restore: true, purge: true }),
  ...(
    [
      ["stock.received", "Units of a stock item were received at a location."],
      ["stock.issued", "Units of a stock item were issued to a person, an asset or a location."],
      ["stock.returned", "Units of a returnable issue came back (also when their holder was deactivated)."],
      ["stock.transferred", "Units of a stock item moved between locations."],
      ["stock.adjusted", "A counted correction changed a location's quantity (by hand or from an inventory session)."],
    ] as const
  ).map(([type, description]) => ({
    type,
    description,
    resource: "stockMovement" as const,
    extra: "`onHand`: the item's total after it; `levels`: the touched locations' quantities after it.",
  })),
  {
    type: "stock.low",
    description:
      "A stock item fell below a reorder level, at a location or in total: once per crossing (each admin is notified in the app).",
    resource: "stockLevel",
  },
  {
    type: "stock.restocked",
    description: "A stock item that was low is back at or above its reorder level.",
    resource: "stockLevel",
  },
  ...crud("licence_product", "licenceProduct", "software product", { restore: true, purge: true }),
  ...crud("licence_lot", "licenceLot", "licence entitlement (lot)").map((e) =>
    e.type === "licence_lot.created"
      ? { ...e, description: "An entitlement (lot) was added to a software product." }
      : e,
  ),
  {
    type: "licence_seat.assigned",
    description: "A seat of a lot was assigned to a person or an asset.",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.unassigned",
    description: "A seat was unassigned (by hand, or revoked by an access review: `reviewId`).",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.released",
    description: "A seat was released because its person was deactivated or its asset retired (`unassignReason`).",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.reclaimed",
    description: "An unused seat was reclaimed (its holder's user and the managers are notified in the app).",
    resource: "licenceSeat",
  },
  {
    type: "licence.renewal_due",
    description: "A lot's term ends within its notice period (once per lot and term end; sent by the cron).",
    resource: "licenceLot",
    extra: "`productName`; `recipients` and `notificationIds`: the users notified in the app and their notifications.",
  },
  {
    type: "licence.expired",
    description: "A lot's term ended without renewing itself (once per lot and end; sent by the cron).",
    resource: "licenceLot",
    extra: "`productName`; `recipients` and `notificationIds`.",
  },
  {
    type: "licence.renewed",
    description:
      "A term that renews itself passed its end; the cron moved `startDate` and `endDate` on by whole terms.",
    resource: "licenceLot",
    extra: "`previousEndDate`.",
  },
  {
    type: "licence_review.opened",
    description: "An access review of a product's seats was opened.",
    resource: "licenceReview",
  },
  {
    type: "licence_review.decided",
    description: "Seats of an access review were kept or revoked (the review closes with its last decision).",
    resource: "licenceReview",
  },
  {
    type: "code.created",
    description: "A code was attached to an asset, kit, location or stock item.",
    resource: "code",
  },
  {
    type: "code.claimed",
    description: "A reserved (pre-printed) code was claimed for an asset, kit, location or stock item.",
    resource: "code",
  },
  { type: "code.voided", description: "A code was voided: it names nothing any more.", resource: "code" },
  {
    type: "tag_batch.created",
    description: "A batch of tag codes was reserved, to print before the equipment arrives.",
    resource: "tagBatch",
  },
  { type: "feedback.created", description: "Feedback was submitted.", resource: "feedback" },
  {
    type: "api_key.created",
    description: "An API key was created (its secret is never included).",
    resource: "apiKey",
  },
  {
    type: "api_key.revoked",
    description: "An API key was revoked.",
    resource: "apiKey",
    extra: "Only `id` and `revokedAt`.",
  },
  { type: "user.invited", description: "A user was invited to the workspace.", resource: "invite" },
  {
    type: "invite.revoked",
    description: "An invitation was revoked.",
    resource: "invite",
    extra: "Only `id` and `revokedAt`.",
  },
  {
    type: "user.joined",
    description: "An invited user accepted and joined the workspace.",
    resource: "user",
    extra: "`inviteId`.",
  },
  { type: "user.updated", description: "A user's role or status changed.", resource: "user", extra: CHANGES },
  {
    type: "offboarding.started",
    description:
      "An offboarding case started (an admin, or SCIM deprovisioning): the person's sign-ins ended, their reserved bookings were cancelled.",
    resource: "offboardingCase",
    extra: "`cancelledBookingIds`: the bookings cancelled by it (each sends booking.cancelled).",
  },
  {
    type: "offboarding.item_returned",
    description:
      "Something on an open offboarding case came back (a check-in, a kit check-in, a stock return, a request answered).",
    resource: "offboardingCase",
    extra:
      "Carries `caseId`, `personId` and `item` (`kind`, `itemId`, `name`, `reference`, `returnedAt`), not the case.",
  },
  {
    type: "offboarding.overdue",
    description: "An open offboarding case passed its due date with items still out (once per case).",
    resource: "offboardingCase",
    extra:
      "`recipients` and `notificationIds`: the users notified in the app (the person, their manager, owners and admins).",
  },
  {
    type: "offboarding.closed",
    description:
      "Everything on an offboarding case came back: the person was deactivated (nothing checked in) and the case closed with its record.",
    resource: "offboardingCase",
  },
  {
    type: "offboarding.cancelled",
    description:
      "An open offboarding case was cancelled (re-provisioning or an admin); nothing was checked in, outstanding items are `withdrawn`.",
    resource: "offboardingCase",
    extra: "`cancelSource` (`admin` or `scim`) and `cancelRequestId`.",
  },
  // Provisioning from the identity provider (docs/scim.md): each carries the SCIM request id.
  {
    type: "person.provisioned",
    description:
      "An identity provider created a SCIM User: its person was created or matched (externalId, else email).",
    resource: "scimUser",
  },
  {
    type: "person.scim_updated",
    description: "An identity provider replaced or patched a SCIM User; its person was updated.",
    resource: "scimUser",
  },
  {
    type: "person.deprovisioned",
    description:
      "An identity provider deactivated or deleted a SCIM User: an offboarding case started and the user's access ended; nothing was checked in.",
    resource: "scimUser",
  },
  {
    type: "person.reprovisioned",
    description: "An identity provider reactivated a SCIM User: an open offboarding case was cancelled.",
    resource: "scimUser",
  },
  {
    type: "user.provisioned",
    description: "A group mapping gave a provisioned person a role: a password-less user who signs in through SSO.",
    resource: "user",
  },
  {
    type: "user.role_changed",
    description: "A provisioned user's role changed with their groups (raised, lowered, or access ended).",
    resource: "user",
    extra: "`scimRequestId`.",
  },
  { type: "group.created", description: "An identity provider created a SCIM Group.", resource: "scimGroup" },
  { type: "group.updated", description: "A SCIM Group's name or members changed.", resource: "scimGroup" },
  { type: "group.deleted", description: "An identity provider deleted a SCIM Group.", resource: "scimGroup" },
  { type: "scim_token.created", description: "An admin made a SCIM token.", resource: "scimToken" },
  {
    type: "scim_token.revoked",
    description: "An admin revoked a SCIM token.",
    resource: "scimToken",
    extra: "Only `id` and `revokedAt`.",
  },
  {
    type: "scim_group_mapping.created",
    description: "An admin added a group mapping rule.",
    resource: "scimGroupMapping",
  },
  {
    type: "scim_group_mapping.updated",
    description: "An admin changed a group mapping rule (the group's members' roles follow at once).",
    resource: "scimGroupMapping",
  },
  {
    type: "scim_group_mapping.deleted",
    description: "An admin removed a group mapping rule.",
    resource: "scimGroupMapping",
  },
  {
    type: "webhook.verification",
    description: "Sent by POST /webhooks/endpoints/{id}/verify only; never subscribed to.",
    resource: "verification",
  },
  // Signed hand-overs (docs/handovers.md).
  ...crud("agreement", "agreement", "agreement"),
  {
    type: "handover.created",
    description:
      "Items were checked out to (or back in from) a person under an agreement; the hand-over waits for the person's acceptance.",
    resource: "handover",
  },
  {
    type: "handover.accepted",
    description: "The person signed a hand-over (in person or by link); one acceptance covers all its items.",
    resource: "handover",
  },
  {
    type: "handover.declined",
    description:
      "The person declined a hand-over by link, with a reason (`declineReason`); the items stay where they are.",
    resource: "handover",
  },
  {
    type: "handover.receipt_issued",
    description: "A PDF receipt of an accepted hand-over was stored and linked into the workspace's receipt chain.",
    resource: "receipt",
  },
];

const BY_TYPE = new Map(CATALOGUE.map((e) => [e.type, e]));
export const catalogueEntry = (type: string) => BY_TYPE.get(type);
/** Types an endpoint can subscribe to (all but the verification ping). */
export const SUBSCRIBABLE_TYPES: readonly string[] = CATALOGUE.filter((e) => e.resource !== "verification").map(
  (e) => e.type,
);
export const isDeliverable = (type: string) => type !== "webhook.verification" && BY_TYPE.has(type);

/** The body of every delivery (Standard Webhooks: `type`, `timestamp`, `data`), plus the event and workspace ids. */
export interface WebhookPayload {
  id: string;
  type: string;
  timestamp: string;
  tenantId: string;
  data: Record<string, unknown>;
}

/** The payload of an outbox event: its row's payload is the resource after the change (session reports are folded in). */
export function payloadOf(
  event: Pick<DomainEvent, "id" | "type" | "payload" | "createdAt">,
  tenantId: string,
): WebhookPayload {
  const p = event.payload;
  const session = p.session;
  const data =
    session && typeof session === "object" && "report" in p
      ? { ...(session as Record<string, unknown>), report: p.report }
      : p;
  return { id: event.id, type: event.type, timestamp: event.createdAt, tenantId, data };
}

/** Whether an endpoint subscribed to `eventTypes` (null = all) receives `type`. */
export const subscribes = (eventTypes: readonly string[] | null, type: string) =>
  eventTypes === null || eventTypes.includes(type);
