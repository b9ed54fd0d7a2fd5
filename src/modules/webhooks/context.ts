import { type WebhookDeps, webhookDeps } from "../../domain/webhook-delivery";
import type { AppContext } from "../../env";
import { type ServiceCtx, serviceCtx } from "../../http/service-context";

/** Webhook verbs: the service context plus the delivery dependencies (queue, outbound policy, clock). */
export interface WebhookCtx extends ServiceCtx {
  deps: WebhookDeps;
}

export function webhookCtx(c: AppContext): WebhookCtx {
  const ctx = serviceCtx(c);
  return { ...ctx, deps: webhookDeps(c.env, ctx.tenantId, ctx.db) };
}
