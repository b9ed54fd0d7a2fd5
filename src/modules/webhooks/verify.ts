import { eq } from "drizzle-orm";
import { webhookEndpoints } from "../../db/tenant/webhooks";
import type { WebhookPayload } from "../../domain/webhook-delivery";
import { sendSigned } from "../../domain/webhook-delivery";
import { newId } from "../../platform/ids";
import type { WebhookCtx } from "./context";
import { getEndpoint } from "./endpoints";

/**
 * Sends a signed `webhook.verification` event to the endpoint now (also when it is disabled, so a
 * fixed receiver can be checked before enabling it) and reports what happened. Not a delivery: it
 * has no retries and no history beyond the endpoint's `lastVerifiedAt`, set when it answers 2xx.
 */
export async function verifyEndpoint(ctx: WebhookCtx, id: string) {
  const endpoint = await getEndpoint(ctx, id);
  const now = ctx.deps.now();
  const payload: WebhookPayload = {
    id: newId("event"),
    type: "webhook.verification",
    timestamp: now.toISOString(),
    tenantId: ctx.tenantId,
    data: { endpointId: endpoint.id, url: endpoint.url },
  };
  const outcome = await sendSigned(endpoint, payload.id, JSON.stringify(payload), ctx.deps.policy, now);
  const verifiedAt = outcome.ok ? ctx.deps.now().toISOString() : null;
  if (verifiedAt)
    await ctx.db.update(webhookEndpoints).set({ lastVerifiedAt: verifiedAt }).where(eq(webhookEndpoints.id, id)).run();
  return {
    ok: outcome.ok,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    verifiedAt,
  };
}
