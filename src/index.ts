import { WorkerEntrypoint } from "cloudflare:workers";
import { buildApp } from "./app";
import type { WebhookMessage } from "./domain/webhook-delivery";
import { consumeWebhookMessages, deliveryIdsOf } from "./domain/webhook-delivery";
import type { Bindings } from "./env";
import { EVENT_HANDLERS } from "./event-handlers";
import { consumeEvents } from "./events/consumer";
import type { EventMessage } from "./events/types";
import { countedEnv, type D1Counter } from "./http/d1-counter";
import { runScheduled } from "./jobs/scheduled";
import {
  consumeMoveMessages,
  enqueueForwarded,
  forwardMoved,
  MOVE_QUEUE,
  type MoveMessage,
  moveReceiver,
  resumeMoveById,
} from "./modules/admin";
import { consumeImportMessages, IMPORT_QUEUE, type ImportMessage } from "./modules/import-export";
import { consumeNotificationMessages, NOTIFICATION_QUEUE, type NotificationMessage } from "./modules/notifications";
import { shardFill } from "./tenancy/fill";

/** The webhook delivery queue's name (wrangler.toml); every other batch is domain events. */
const WEBHOOK_QUEUE = "inventory-webhooks";

export { InventorySession } from "./domain/inventory-session";
export { UserRealtime } from "./events/user-realtime";

const app = buildApp();

type AnyMessage = EventMessage | WebhookMessage | ImportMessage | NotificationMessage | MoveMessage;

/** A queue by its name, or a shard's copy of it (`inventory-webhooks-s1`: scripts/lib/shard-configs.mjs). */
const isQueue = (name: string, base: string) => name === base || name.startsWith(`${base}-s`);

/** Messages of workspaces that moved to another shard go on there; the rest are consumed here. */
async function consume(batch: MessageBatch<AnyMessage>, env: Bindings): Promise<void> {
  // A move is run by the shard it was queued on, whichever shard its workspace is on by then.
  if (isQueue(batch.queue, MOVE_QUEUE)) return consumeMoveMessages(env, batch as MessageBatch<MoveMessage>);
  const mine = await forwardMoved(env, batch.queue, batch.messages);
  if (mine.length === 0) return;
  const rest: MessageBatch<AnyMessage> =
    mine.length === batch.messages.length
      ? batch
      : {
          queue: batch.queue,
          metadata: batch.metadata,
          messages: mine,
          ackAll: () => {
            for (const m of mine) m.ack();
          },
          retryAll: (options) => {
            for (const m of mine) m.retry(options);
          },
        };
  return consumeHere(rest, env);
}

function consumeHere(batch: MessageBatch<AnyMessage>, env: Bindings): Promise<void> {
  if (isQueue(batch.queue, WEBHOOK_QUEUE)) return consumeWebhookMessages(env, batch as MessageBatch<WebhookMessage>);
  if (isQueue(batch.queue, IMPORT_QUEUE)) return consumeImportMessages(env, batch as MessageBatch<ImportMessage>);
  if (isQueue(batch.queue, NOTIFICATION_QUEUE))
    return consumeNotificationMessages(env, batch as MessageBatch<NotificationMessage>);
  return consumeEvents(env, batch as MessageBatch<EventMessage>, EVENT_HANDLERS);
}

/**
 * Benchmarks only (D1_QUEUE_LOG=true, set by bench/lib.mjs; never under `npm start`, whose output
 * stays quiet): every consumed batch logs its D1 statements beside the work it carried (`items`:
 * deliveries for webhooks, else messages), one `d1-queue` line each (on stderr, which `wrangler dev --log-level error` still shows), which
 * bench/webhooks.mjs sums into statements per delivery.
 */
async function consumeCounted(batch: MessageBatch<AnyMessage>, env: Bindings): Promise<void> {
  const n: D1Counter = { statements: 0, roundTrips: 0 };
  await consume(batch, countedEnv(env, n));
  const items = isQueue(batch.queue, WEBHOOK_QUEUE)
    ? batch.messages.reduce((sum, m) => sum + deliveryIdsOf(m.body as WebhookMessage).length, 0)
    : batch.messages.length;
  console.error(`d1-queue ${JSON.stringify({ queue: batch.queue, items, ...n })}`);
}

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<AnyMessage>, env: Bindings): Promise<void> {
    return env.D1_QUEUE_LOG === "true" ? consumeCounted(batch, env) : consume(batch, env);
  },
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(runScheduled(env, controller));
  },
} satisfies ExportedHandler<Bindings, AnyMessage>;

/**
 * The entrypoint the router's service binding calls when the service runs as shards
 * (src/router/shards.ts): `fetch` is the API as above; `fill` tells how full this shard's pool is.
 * It has no route of its own, so nothing but the router reaches it.
 */
export class Shard extends WorkerEntrypoint<Bindings> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  fill() {
    return shardFill(this.env);
  }

  /** The cron, run now at the router's ask (its local `/__scheduled`: src/router/index.ts). */
  cron(scheduledTime: number) {
    return runScheduled(this.env, { scheduledTime });
  }

  // A workspace moving here from another shard (src/modules/admin/move/, docs/deploying.md#moving-a-workspace-between-shards).
  moveInBegin(input: Parameters<Receiver["moveInBegin"]>[0]) {
    return moveReceiver(this.env).moveInBegin(input);
  }
  moveInRows(input: Parameters<Receiver["moveInRows"]>[0]) {
    return moveReceiver(this.env).moveInRows(input);
  }
  moveInSessions(input: Parameters<Receiver["moveInSessions"]>[0]) {
    return moveReceiver(this.env).moveInSessions(input);
  }
  moveInFinish(input: Parameters<Receiver["moveInFinish"]>[0]) {
    return moveReceiver(this.env).moveInFinish(input);
  }
  moveInAbort(input: Parameters<Receiver["moveInAbort"]>[0]) {
    return moveReceiver(this.env).moveInAbort(input);
  }
  /** A move this shard drives that stopped midway, taken over at another shard's ask (src/modules/admin/move/resume.ts). */
  moveResume({ moveId }: { moveId: string }) {
    return resumeMoveById(this.env, moveId);
  }
  /** Queue messages of a workspace that moved here, forwarded by its old shard. */
  enqueue(queue: string, bodies: unknown[]) {
    return enqueueForwarded(this.env, queue, bodies);
  }
}

type Receiver = ReturnType<typeof moveReceiver>;
