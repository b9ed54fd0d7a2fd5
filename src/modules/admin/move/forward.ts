import { tenants } from "../../../db/control/schema";
import type { Bindings } from "../../../env";
import { inJson } from "../../../platform/d1-write";
import { controlDb } from "../../../tenancy/registry";
import { DEFAULT_SHARD, shardName } from "../../../tenancy/shard";
import { peerShard } from "./peers";

/** The queues a shard forwards to, by their name without the shard suffix, and the binding that sends to each. */
const QUEUE_BINDINGS: Record<string, "EVENTS" | "WEBHOOKS" | "IMPORTS" | "NOTIFICATIONS"> = {
  "inventory-events": "EVENTS",
  "inventory-webhooks": "WEBHOOKS",
  "inventory-imports": "IMPORTS",
  "inventory-notifications": "NOTIFICATIONS",
};
const baseName = (queue: string) => queue.replace(/-s[0-9]+$/, "");

/**
 * Queue messages of workspaces that moved to another shard while the messages waited (an event
 * dispatched, a delivery scheduled, an import chunk queued before the switch) go on to that shard's
 * queue of the same kind, in the order they came, and are acked here; this shard's database for the
 * workspace is gone. Returns the messages this shard consumes itself. A deployment without a router
 * (`main`) moves nothing and reads nothing here.
 */
export async function forwardMoved<T extends { tenantId: string }>(
  env: Bindings,
  queue: string,
  messages: readonly Message<T>[],
): Promise<Message<T>[]> {
  const here = shardName(env);
  if (here === DEFAULT_SHARD || !QUEUE_BINDINGS[baseName(queue)]) return [...messages];
  const ids = [...new Set(messages.map((m) => m.body.tenantId))];
  const rows = await controlDb(env)
    .select({ id: tenants.id, shard: tenants.shard })
    .from(tenants)
    .where(inJson(tenants.id, ids))
    .all();
  const elsewhere = new Map(rows.filter((r) => r.shard !== here).map((r) => [r.id, r.shard]));
  if (elsewhere.size === 0) return [...messages];
  const byShard = new Map<string, Message<T>[]>();
  const mine: Message<T>[] = [];
  for (const m of messages) {
    const shard = elsewhere.get(m.body.tenantId);
    if (shard && peerShard(env, shard)) byShard.set(shard, [...(byShard.get(shard) ?? []), m]);
    else mine.push(m);
  }
  for (const [shard, moved] of byShard) {
    try {
      await peerShard(env, shard)!.enqueue(
        baseName(queue),
        moved.map((m) => m.body),
      );
      for (const m of moved) m.ack();
    } catch (err) {
      console.error(`forwarding ${moved.length} messages to shard ${shard} failed; retrying`, String(err));
      for (const m of moved) m.retry({ delaySeconds: 5 });
    }
  }
  return mine;
}

/** The destination's side: messages forwarded by the old shard, sent to this shard's queue of that kind. */
export async function enqueueForwarded(env: Bindings, queue: string, bodies: unknown[]): Promise<void> {
  const binding = QUEUE_BINDINGS[queue];
  if (!binding) throw new Error(`unknown queue ${queue}`);
  for (let i = 0; i < bodies.length; i += 100)
    await env[binding].sendBatch(bodies.slice(i, i + 100).map((body) => ({ body, contentType: "json" as const })));
}
