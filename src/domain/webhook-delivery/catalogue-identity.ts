import { type CatalogueEntry, CHANGES, crud } from "./catalogue-entry";

/** People's access: API keys, users and invitations, offboarding, and provisioning from the identity provider (docs/scim.md). */
export const IDENTITY_EVENTS: readonly CatalogueEntry[] = [
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
];

/** Signed hand-overs (docs/handovers.md). */
export const HANDOVER_EVENTS: readonly CatalogueEntry[] = [
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
