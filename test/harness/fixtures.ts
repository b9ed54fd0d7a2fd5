import { checkinSetup, checkoutBody, checkoutSetup, inventoryItem, inventoryItemTag } from "./asset-fixtures";
import {
  booking,
  calendarFeed,
  calendarFeedFile,
  itemKitSetup,
  kit,
  kitMemberSetup,
  kitWithMember,
  spareItemBody,
  spareItemSetup,
} from "./booking-fixtures";
import { HANDOVER_FIXTURES, HANDOVER_SAMPLES } from "./handover-fixtures";
import { importJob } from "./import-export-fixtures";
import { LABEL_FIXTURES, LABEL_SAMPLES } from "./label-fixtures";
import { LICENCE_FIXTURES, LICENCE_SAMPLES, LICENCE_SETUP } from "./licence-walk-fixtures";
import { MAINTENANCE_FIXTURES } from "./maintenance-fixtures";
import { MOVE_SETUP } from "./move-fixtures";
import { uploadedObjectKey } from "./object-fixtures";
import { openCase } from "./offboarding-fixtures";
import { createUser } from "./principals";
import { openRequest } from "./request-fixtures";
import { activeSession, sessionItem, sessionSchedule, unscanBody } from "./session-fixtures";
import { countSetup, STOCK_SAMPLES, stockSetup } from "./stock-fixtures";
import type { Untyped } from "./tenant";
import { type CallOptions, type CallResult, createTenant, type TestTenant } from "./tenant";
import { WEBHOOK_FIXTURES } from "./webhook-fixtures";

/**
 * Fixtures of the shared security suite (test/security/routes.test.ts), which walks every
 * operation of the OpenAPI document. For a path parameter it needs a real resource to probe
 * "another tenant's id -> 404"; this registry, keyed by the parameter's name, creates one.
 *
 * A new module adds one entry per new path parameter, e.g.
 *   inventoryItemId: async (ctx) => created(await ctx.api("/assets", { body: { name: ctx.unique("Asset") } })),
 * An operation whose parameter has no entry fails the suite, so no route is silently skipped.
 * A generic name such as `id` is looked up as `<collection>.<name>` (`api-keys.id` for
 * `/api-keys/{id}`) before the bare name.
 */

export interface FixtureContext {
  /** The workspace the resource is created in (an enterprise-plan workspace). */
  tenant: TestTenant;
  /** Calls the workspace's API as its owner (Bearer JWT: accepted by data and JWT routes). */
  api: <T = Untyped>(path: string, opts?: CallOptions) => Promise<CallResult<T>>;
  /** Calls the admin host with the platform-admin cookie. */
  admin: <T = Untyped>(path: string, opts?: CallOptions) => Promise<CallResult<T>>;
  /** Values of the path's earlier parameters, for nested resources (`/sessions/{sessionId}/scans/{scanId}`). */
  params: Readonly<Record<string, string>>;
  /** A name no other fixture uses (names are unique per workspace). */
  unique: (label: string) => string;
}

export type Fixture = (ctx: FixtureContext) => Promise<string>;

/** The fixture for `{name}` in `path`: `<collection>.<name>` first, then the bare name. */
export function fixtureFor(path: string, name: string): Fixture | undefined {
  const collection = path.split(`/{${name}}`)[0]?.split("/").pop();
  return PARAM_FIXTURES[`${collection}.${name}`] ?? PARAM_FIXTURES[name];
}

/** The `id` of a 201 response, or an error that says what the fixture's create call answered. */
export function created(res: { status: number; body: unknown }, field = "id"): string {
  const value = (res.body as Record<string, unknown> | null)?.[field];
  if (res.status !== 201 || typeof value !== "string") {
    throw new Error(`fixture create call answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return value;
}

let queue: Promise<unknown> = Promise.resolve();
/** Provisioning runs one at a time: concurrent provisioning can report a lost pool race as a slug conflict. */
function serially<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

export const PARAM_FIXTURES: Record<string, Fixture> = {
  categoryId: async (ctx) => created(await ctx.api("/categories", { body: { name: ctx.unique("Category") } })),
  locationId: async (ctx) => created(await ctx.api("/locations", { body: { name: ctx.unique("Location") } })),
  // Straight into the tenant database, so the suite does not depend on invite acceptance.
  userId: async (ctx) => (await createUser(ctx.tenant, "member")).id,
  inviteId: async (ctx) =>
    created(
      await ctx.api("/users/invites", { body: { email: `${ctx.unique("invitee")}@example.com`, role: "member" } }),
    ),
  apiKeyId: async (ctx) => created(await ctx.api("/api-keys", { body: { name: ctx.unique("Key") } })),
  "api-keys.id": async (ctx) => created(await ctx.api("/api-keys", { body: { name: ctx.unique("Key") } })),
  personId: async (ctx) => created(await ctx.api("/people", { body: { name: ctx.unique("Person") } })),
  inventoryItemId: inventoryItem,
  bookingId: booking,
  feedId: calendarFeed,
  "calendar.file": calendarFeedFile,
  kitId: kit,
  requestId: openRequest,
  caseId: openCase,
  stockItemId: async (ctx) =>
    created(await ctx.api("/stock-items", { body: { name: ctx.unique("Stock item"), unit: "box" } })),
  movementId: async (ctx) => {
    const item = created(await ctx.api("/stock-items", { body: { name: ctx.unique("Stock item") } }));
    const locationId = created(await ctx.api("/locations", { body: { name: ctx.unique("Location") } }));
    const res = await ctx.api<{ movement: { id: string } }>(`/stock-items/${item}/receive`, {
      body: { locationId, quantity: 1 },
    });
    if (res.status !== 201) throw new Error(`fixture receive answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.movement.id;
  },
  uniqueTag: inventoryItemTag,
  // A stock item's tag (GET /stock-items/tag/{tag}: what its label's /s/<tag> looks up).
  tag: async (ctx) =>
    created(await ctx.api("/stock-items", { body: { name: ctx.unique("Stock item"), unit: "box" } }), "tag"),
  customFieldId: async (ctx) =>
    created(
      await ctx.api("/custom-fields", {
        body: {
          entity: "asset",
          key: ctx.unique("cf").replace(/[^A-Za-z0-9_]/g, "_"),
          label: "Fixture field",
          type: "text",
        },
      }),
    ),
  layoutId: async (ctx) =>
    created(
      await ctx.api("/layouts", {
        body: { entity: "asset", name: ctx.unique("Layout"), sections: [{ title: "Main", fields: [{ key: "name" }] }] },
      }),
    ),
  // Sessions: an active session with a known asset; `items.itemId` is an item of it (or, under /scan-events, an asset).
  sessionId: activeSession,
  "items.itemId": sessionItem,
  scheduleId: sessionSchedule,
  // Admin routes: any workspace is the platform admin's to see; there is no "other tenant".
  tenantId: () =>
    serially(async () => {
      const t = await createTenant();
      fixtureSlugs.set(t.id, t.slug);
      return t.id;
    }),
  // Files (`/objects`): the path carries the full tenant-scoped key, percent-encoded.
  objectKey: uploadedObjectKey,
  // Maintenance and notifications: /maintenance/{schedules,logs}/..., /notifications/{notificationId}.
  ...MAINTENANCE_FIXTURES,
  // CSV imports: /imports/{importId}, /imports/{importId}/rows.
  importId: importJob,
  // Webhooks: /webhooks/endpoints/{id}, /webhooks/deliveries/{id}, /webhooks/events/{id}.
  ...WEBHOOK_FIXTURES,
  // Hand-overs: /agreements/{agreementId}, /handovers/{handoverId}, /receipts/{receiptId}, /handover-links/{token}.
  ...HANDOVER_FIXTURES,
  // Licences: products, lots, seats, keys, reviews and renewal feeds.
  ...LICENCE_FIXTURES,
  // Codes, label templates, SCIM tokens and group mappings.
  ...LABEL_FIXTURES,
};

/**
 * Path parameters that are not resource ids (so "another tenant's id" does not apply), with the
 * value to use. Keep this short: a resource id belongs in PARAM_FIXTURES.
 */
export const NON_RESOURCE_PARAMS: Record<string, string> = {};

/**
 * Valid request bodies for operations whose body the schema-driven sampler cannot guess
 * (test/security/samples.ts). Keyed by operationId. The suite checks each sample is accepted.
 */
/** Slugs of the workspaces made by the tenantId fixture (deletion repeats the slug as confirmation). */
const fixtureSlugs = new Map<string, string>();

export const SAMPLE_BODIES: Record<string, (ctx: FixtureContext) => unknown> = {
  adminDeleteTenant: (ctx) => ({ slug: fixtureSlugs.get(ctx.params.tenantId ?? "") ?? "unknown-slug" }),
  adminUpdateTenant: () => ({ plan: "enterprise" }),
  unscanSessionItem: unscanBody,
  checkoutInventoryItem: checkoutBody,
  checkoutKit: checkoutBody,
  addKitMembers: spareItemBody,
  bookKit: (ctx) => ({
    ...checkoutBody(ctx),
    startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    endsAt: new Date(Date.now() + 8 * 86_400_000).toISOString(),
  }),
  changeInventoryItemStatus: () => ({ toStatus: "maintenance" }),
  ...STOCK_SAMPLES,
  ...HANDOVER_SAMPLES,
  ...LICENCE_SAMPLES,
  ...LABEL_SAMPLES,
};

/**
 * Puts the fixture resources into the state an operation needs before the suite's positive
 * control calls it (keyed by operationId). By convention `POST <resource>/restore` first deletes
 * `<resource>` (a live resource is not "deleted" and may answer 404), so no entry is needed for it.
 */
export const OPERATION_SETUP: Record<string, (ctx: FixtureContext, path: string) => Promise<void>> = {
  checkoutInventoryItem: checkoutSetup,
  checkinInventoryItem: checkinSetup,
  removeKitMember: kitMemberSetup,
  addKitMembers: spareItemSetup,
  getInventoryItemKit: itemKitSetup,
  checkoutKit: async (ctx, path) => {
    await kitWithMember(ctx, path);
    await checkoutSetup(ctx);
  },
  checkinKit: kitWithMember,
  ...Object.fromEntries(Object.keys(STOCK_SAMPLES).map((op) => [op, stockSetup])),
  countSessionStock: countSetup,
  ...LICENCE_SETUP,
  ...MOVE_SETUP,
  bookKit: async (ctx, path) => {
    await kitWithMember(ctx, path);
    await checkoutSetup(ctx);
  },
};

export async function prepareOperation(
  operationId: string,
  method: string,
  path: string,
  ctx: FixtureContext,
): Promise<void> {
  const setup = OPERATION_SETUP[operationId];
  if (setup) return setup(ctx, path);
  if (method === "POST" && path.endsWith("/restore")) {
    const res = await ctx.api(path.replace(/^\/api\/v1/, "").replace(/\/restore$/, ""), { method: "DELETE" });
    if (res.status !== 204)
      throw new Error(`setup DELETE before ${operationId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}
