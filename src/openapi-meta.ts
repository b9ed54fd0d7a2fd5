/**
 * The document's root: info (contact, licence) and the tags with what each group holds. Every tag
 * an operation uses must be listed here: test/contract/document.test.ts fails otherwise, so a new
 * resource group arrives with its description.
 */
export const API_TAGS: { name: string; description: string }[] = [
  { name: "Auth", description: "Sign-in with a password, refresh and sign-out (JWTs), invite acceptance." },
  { name: "Users", description: "The workspace's members, their roles, and invitations." },
  { name: "API keys", description: "Keys for integrations: created once, scoped, revocable, with last use." },
  { name: "Platform admin", description: "The operator's area on the admin host: workspaces, export, deletion." },
  { name: "Categories", description: "What kind of thing an item is; one default category per workspace." },
  { name: "Locations", description: "Where items live, as a tree; one default location per workspace." },
  {
    name: "Inventory items",
    description: "Assets: create, edit, status, check-out and check-in, history, bulk actions.",
  },
  { name: "Bookings", description: "Reservations of items and kits for a window, pick-up and return." },
  { name: "Kits", description: "Items handed out together, booked and checked out as one." },
  {
    name: "Licences",
    description:
      "Software products, their entitlements (lots) with encrypted product keys, seats for people and assets, usage, reclaiming, renewals, reports and access reviews.",
  },
  {
    name: "Stock",
    description: "Quantities of things per location (consumables, accessories, spare parts), moved by movements.",
  },
  { name: "Requests", description: "Asking for an asset or a kit, now or for a window; admins approve or decline." },
  {
    name: "Offboarding",
    description: "A leaver's equipment coming back: a case lists what they hold and ticks returns off.",
  },
  {
    name: "Hand-overs",
    description:
      "Agreements signed when equipment changes hands: in person or by link, with hash-chained PDF receipts.",
  },
  {
    name: "SCIM",
    description:
      "SCIM 2.0 (RFC 7643, 7644) for identity providers, under /scim/v2 (not /api/v1): Users and Groups, with a SCIM token only.",
  },
  { name: "SCIM tokens and mappings", description: "The workspace's SCIM tokens and its group → role mapping rules." },
  { name: "Labels", description: "Printable labels: QR sheets, and label templates printed as PDF, ZPL or PNG." },
  {
    name: "Codes",
    description:
      "Codes beyond a tag (QR, DataMatrix, Code128, Code39, EAN-13/UPC-A), looked up anywhere, and tags reserved before assets.",
  },
  { name: "Asset health", description: "Each asset's health score and badge, and the workspace's settings for it." },
  { name: "Trash", description: "Deleted records: list, restore, purge." },
  { name: "People", description: "People who hold items (not necessarily users), deactivation included." },
  { name: "Custom fields", description: "Workspace-defined fields on items, with types and validation." },
  { name: "Layouts", description: "Saved column layouts of the item list." },
  { name: "Inventory sessions", description: "Counting sessions: scope, scans, progress, reconciliation, reports." },
  { name: "Session schedules", description: "Recurring counting sessions." },
  { name: "Scan events", description: "Every scan, with who, where and when." },
  { name: "Maintenance", description: "Maintenance schedules, due lists, reminders and the maintenance log." },
  { name: "Notifications", description: "The signed-in user's notifications and their realtime channel." },
  { name: "Feedback", description: "Feedback from users, with attachments." },
  { name: "Objects", description: "Files (images, attachments) behind signed URLs." },
  { name: "Search", description: "One search over items, people, locations and categories." },
  { name: "Settings", description: "Workspace settings: time zone, currency, CORS origins and more." },
  { name: "Analytics", description: "Utilisation, maintenance and inventory reports, and TT10." },
  { name: "Exports", description: "CSV exports of items, people and sessions." },
  { name: "Imports", description: "CSV imports of items and people, with a dry run and a job report." },
  { name: "Webhooks", description: "Webhook endpoints (Standard Webhooks), deliveries and replay." },
  { name: "Single sign-on", description: "SAML and OIDC configuration, and the sign-in flows they drive." },
  { name: "Webhook events", description: "The events a webhook endpoint receives, one per type." },
];

/** `info` of the document: the same on every host (the typed client's copy is compared with it). */
export const API_INFO = {
  title: "Inventory Tracking API",
  version: "1.0.0",
  description:
    "Multi-tenant asset and inventory tracking. The workspace is the first label of the host name " +
    "(`https://<workspace>.<domain>/api/v1`). Errors are `{ message, code, details?, requestId }`; " +
    "lists are cursor-paginated (`limit`, `cursor` → `nextCursor`). Unknown body fields are a 400; " +
    "unknown query parameters are ignored (caches, tracking tags and newer clients add them). A path " +
    "called with a method it does not serve is a 405 whose `Allow` header lists the methods it does.\n\n" +
    "Licence: proprietary; workspaces and their integrations may call the API under their subscription.",
  // The operator of a deployment answers for it; the reference page (/api/v1/docs) is on every host.
  contact: { name: "The operator of this deployment (platform admin)" },
  license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
};
