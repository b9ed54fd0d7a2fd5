import type { AppContext } from "../../env";
import { serviceCtx, type ServiceCtx } from "../../http/service-context";
import { webhookDeps, type WebhookDeps } from "../../domain/webhook-delivery";

/** Webhook verbs: the service context plus the delivery dependencies (queue, outbound policy, clock). */
export interface WebhookCtx extends ServiceCtx {
  deps: WebhookDeps;
}

export function webhookCtx(c: AppContext): WebhookCtx {
  const ctx = serviceCtx(c);
  return { ...ctx, deps: webhookDeps(c.env, ctx.tenantId, ctx.db) };
}
