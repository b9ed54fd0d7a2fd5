import type { DomainEvent } from "../../events/types";
import { type CatalogueEntry, CHANGES, crud } from "./catalogue-entry";
import { HANDOVER_EVENTS, IDENTITY_EVENTS } from "./catalogue-identity";
import { LABEL_EVENTS } from "./catalogue-labels";
import { LICENCE_EVENTS } from "./catalogue-licences";

export type { CatalogueEntry, Resource } from "./catalogue-entry";

/**
 * The webhook event catalogue: every event type the modules record in the outbox, under the name
 * integrators subscribe to, in the order the docs list them. The parts of the later modules live
 * beside this file (catalogue-*.ts), as the route policy's do.
 */
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
  ...LICENCE_EVENTS,
  ...LABEL_EVENTS,
  { type: "feedback.created", description: "Feedback was submitted.", resource: "feedback" },
  ...IDENTITY_EVENTS,
  {
    type: "webhook.verification",
    description: "Sent by POST /webhooks/endpoints/{id}/verify only; never subscribed to.",
    resource: "verification",
  },
  ...HANDOVER_EVENTS,
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
