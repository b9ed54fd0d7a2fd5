import { eq, sql } from "drizzle-orm";
import { webhookEndpoints } from "../../db/tenant/webhooks";
import type { EndpointRow } from "../../domain/webhook-delivery";
import { newSecret } from "../../domain/webhook-delivery";
import { insertWhere } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { checkOutboundUrl } from "../../platform/outbound";
import { keyset } from "../../platform/pagination";
import type { WebhookCtx } from "./context";
import { MAX_ENDPOINTS } from "./schemas";
import { toEndpoint } from "./view";

/** How long a rotated-out secret keeps signing next to the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

interface EndpointInput {
  url?: string;
  description?: string | null;
  eventTypes?: string[] | null;
  enabled?: boolean;
}

/** The outbound guard at save time: an address we would never send to is a 400 now, not a failure later. */
function safeUrl(ctx: WebhookCtx, url: string): string {
  const check = checkOutboundUrl(url, ctx.deps.policy);
  if (!check.ok) throw invalidField("body.url", check.reason);
  return check.url.toString();
}

export async function listEndpoints({ db }: WebhookCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [webhookEndpoints.id], desc: true });
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toEndpoint);
}

export async function getEndpoint({ db }: WebhookCtx, id: string): Promise<EndpointRow> {
  const row = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/** Creates an endpoint with a fresh secret; at most MAX_ENDPOINTS per workspace (checked inside the insert). */
export async function createEndpoint(ctx: WebhookCtx, input: EndpointInput & { url: string }): Promise<EndpointRow> {
  const now = ctx.deps.now().toISOString();
  const enabled = input.enabled ?? true;
  const row: EndpointRow = {
    id: newId("webhookEndpoint"),
    url: safeUrl(ctx, input.url),
    description: input.description ?? null,
    eventTypes: input.eventTypes ?? null,
    enabled,
    disabledReason: enabled ? null : "manual",
    disabledAt: enabled ? null : now,
    secret: newSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    lastVerifiedAt: null,
    lastSuccessAt: null,
    failingSince: null,
    consecutiveFailures: 0,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
  const res = await insertWhere(
    ctx.db,
    webhookEndpoints,
    row,
    sql`(SELECT count(*) FROM webhook_endpoints) < ${MAX_ENDPOINTS}`,
  ).run();
  if (res.meta.changes === 0)
    throw conflict(`A workspace has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`, {
      limit: MAX_ENDPOINTS,
    });
  return row;
}

/**
 * Updates an endpoint. Enabling it again starts its failure record afresh (a disabled endpoint's
 * undelivered events can then be replayed); disabling it by hand records `manual`.
 */
export async function updateEndpoint(ctx: WebhookCtx, id: string, input: EndpointInput): Promise<EndpointRow> {
  const current = await getEndpoint(ctx, id);
  const now = ctx.deps.now().toISOString();
  const patch: Partial<EndpointRow> = { updatedAt: now };
  if (input.url !== undefined) patch.url = safeUrl(ctx, input.url);
  if (input.description !== undefined) patch.description = input.description;
  if (input.eventTypes !== undefined) patch.eventTypes = input.eventTypes;
  if (input.enabled === true && !current.enabled)
    Object.assign(patch, {
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      consecutiveFailures: 0,
    });
  if (input.enabled === false && current.enabled)
    Object.assign(patch, { enabled: false, disabledReason: "manual", disabledAt: now });
  const row = await ctx.db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id)).returning().get();
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/** Deletes an endpoint; its delivery history stays, and its pending deliveries end as `dead`. */
export async function deleteEndpoint(ctx: WebhookCtx, id: string): Promise<void> {
  const res = await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run();
  if (res.meta.changes === 0) throw notFound("Webhook endpoint");
}

/** A new secret; the current one becomes the previous one and keeps signing for 24 hours. */
export async function rotateSecret(ctx: WebhookCtx, id: string): Promise<EndpointRow> {
  const current = await getEndpoint(ctx, id);
  const now = ctx.deps.now();
  const row = await ctx.db
    .update(webhookEndpoints)
    .set({
      secret: newSecret(),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updatedAt: now.toISOString(),
    })
    .where(eq(webhookEndpoints.id, id))
    .returning()
    .get();
  if (!row) throw notFound("Webhook endpoint");
  return row;
}
