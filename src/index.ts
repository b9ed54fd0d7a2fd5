import { buildApp } from "./app";
import type { Bindings } from "./env";
import { consumeEvents } from "./events/consumer";
import { EVENT_HANDLERS } from "./event-handlers";
import type { EventMessage } from "./events/types";
import { runScheduled } from "./jobs/scheduled";

export { InventorySession } from "./inventory-session";
export { UserRealtime } from "./events/user-realtime";

const app = buildApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<EventMessage>, env: Bindings): Promise<void> {
    await consumeEvents(env, batch, EVENT_HANDLERS);
  },
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(runScheduled(env, controller));
  },
} satisfies ExportedHandler<Bindings, EventMessage>;
