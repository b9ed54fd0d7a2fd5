import { buildApp } from "./app";
import type { Bindings } from "./env";
import { consumeEvents } from "./events/consumer";
import { EVENT_HANDLERS } from "./event-handlers";
import type { EventMessage } from "./events/types";
import { runScheduled } from "./jobs/scheduled";
import { consumeWebhookMessages } from "./webhooks";
import type { WebhookMessage } from "./webhooks";
import { consumeImportMessages, IMPORT_QUEUE, type ImportMessage } from "./modules/data-transfer";

/** The webhook delivery queue's name (wrangler.toml); every other batch is domain events. */
const WEBHOOK_QUEUE = "inventory-webhooks";

export { InventorySession } from "./inventory-session";
export { UserRealtime } from "./events/user-realtime";

const app = buildApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<EventMessage | WebhookMessage | ImportMessage>, env: Bindings): Promise<void> {
    if (batch.queue === WEBHOOK_QUEUE) return consumeWebhookMessages(env, batch as MessageBatch<WebhookMessage>);
    if (batch.queue === IMPORT_QUEUE) return consumeImportMessages(env, batch as MessageBatch<ImportMessage>);
    await consumeEvents(env, batch as MessageBatch<EventMessage>, EVENT_HANDLERS);
  },
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(runScheduled(env, controller));
  },
} satisfies ExportedHandler<Bindings, EventMessage | WebhookMessage | ImportMessage>;
