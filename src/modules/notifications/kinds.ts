import type { DeliveryMode } from "../../db/tenant/notification-delivery";
import type { Role } from "../../db/tenant/users";

/** What a kind is: its label, its email mode per role by default, and whether people who are not users may get it. */
export interface NotificationKind {
  label: string;
  /** Email mode per role when neither the user nor the workspace chose one. */
  email: Record<Role, DeliveryMode>;
  /** Whether a person who is not a user may be mailed this kind about their own equipment. */
  people: boolean;
}

const ALL = (mode: DeliveryMode): Record<Role, DeliveryMode> => ({
  owner: mode,
  admin: mode,
  member: mode,
  requester: mode,
});
const MANAGERS = (mode: DeliveryMode): Record<Role, DeliveryMode> => ({
  owner: mode,
  admin: mode,
  member: "off",
  requester: "off",
});
const kind = (label: string, email: Record<Role, DeliveryMode>, people = false): NotificationKind => ({
  label,
  email,
  people,
});

/**
 * The registry of notification kinds: the notification's `type` → its defaults. A module that
 * starts notifying a new kind adds ONE line here (docs/notifications.md#adding-a-kind). A type not
 * listed is in-app only (never mailed or posted).
 */
export const NOTIFICATION_KINDS = {
  "maintenance.due": kind("Maintenance due", ALL("immediate")),
  "maintenance.overdue": kind("Maintenance overdue", ALL("immediate")),
  "checkout.overdue": kind("Checkout overdue", ALL("immediate"), true),
  "booking.pickup_due": kind("Booking starting", ALL("immediate"), true),
  "booking.overdue": kind("Booking overdue", ALL("immediate"), true),
  "stock.low": kind("Low stock", MANAGERS("daily")),
  "offboarding.return_due": kind("Offboarding return due", ALL("immediate"), true),
  "offboarding.overdue": kind("Offboarding overdue", ALL("immediate"), true),
  "licence.renewal_due": kind("Licence renewal due", MANAGERS("weekly")),
  "licence.expired": kind("Licence expired", MANAGERS("immediate")),
  "licence_seat.reclaimed": kind("Licence seat reclaimed", ALL("daily")),
  "request.created": kind("Request created", MANAGERS("immediate")),
  "request.reminder": kind("Request waiting for an answer", MANAGERS("daily")),
  "request.approved": kind("Request approved", ALL("immediate")),
  "request.declined": kind("Request declined", ALL("immediate")),
  "request.cancelled": kind("Request cancelled", MANAGERS("daily")),
  "request.expired": kind("Request expired", ALL("daily")),
  "session.assigned": kind("Inventory session assigned", ALL("immediate")),
  "webhook.endpoint_disabled": kind("Webhook endpoint disabled", MANAGERS("immediate")),
  "sso.certificate_expiring": kind("SSO certificate expiring", { ...MANAGERS("off"), owner: "immediate" }),
} as const satisfies Record<string, NotificationKind>;

export type KindName = keyof typeof NOTIFICATION_KINDS;
export const KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as KindName[];

export const kindOf = (type: string): NotificationKind | undefined =>
  (NOTIFICATION_KINDS as Record<string, NotificationKind>)[type];
