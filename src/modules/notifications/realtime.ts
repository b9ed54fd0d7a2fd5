import type { Bindings } from "../../env";
import type { RealtimeMessage, UserRealtime } from "../../events/user-realtime";
import { chunk } from "../../platform/d1";
import { type NotificationRow, notificationEvent } from "./view";

/** Where notification changes are pushed: the owner's realtime channel. Never throws. */
export interface RealtimeSink {
  send(userId: string, messages: RealtimeMessage[]): Promise<boolean>;
}

/** Messages per RPC call, so a large read-all is not one oversized call. */
const PER_CALL = 100;

/** The realtime object of a workspace user: one per (tenant, user). */
export function userRealtime(env: Pick<Bindings, "USER_REALTIME">, tenantId: string, userId: string) {
  // The binding is typed untyped in src/env.ts (it names nothing above it); the class is ours to name.
  const ns = env.USER_REALTIME as unknown as DurableObjectNamespace<UserRealtime>;
  return ns.get(ns.idFromName(`${tenantId}:${userId}`));
}

/**
 * The sink of a workspace. A failed realtime emission never fails the operation, so every
 * failure (binding missing, object overloaded or throwing) is logged and reported as `false`.
 */
export function realtimeSink(env: Pick<Bindings, "USER_REALTIME">, tenantId: string): RealtimeSink {
  return {
    async send(userId, messages) {
      if (messages.length === 0) return true;
      try {
        const stub = userRealtime(env, tenantId, userId);
        for (const part of chunk(messages, PER_CALL)) await stub.deliver(part);
        return true;
      } catch (err) {
        console.warn("realtime emission failed", tenantId, userId, String(err));
        return false;
      }
    },
  };
}

/** Pushes newly created notifications to their owners' channels, one call per user. */
export async function pushCreated(sink: RealtimeSink, created: readonly NotificationRow[]): Promise<void> {
  const byUser = new Map<string, NotificationRow[]>();
  for (const n of created) byUser.set(n.userId, [...(byUser.get(n.userId) ?? []), n]);
  for (const [userId, rows] of byUser)
    await sink.send(
      userId,
      rows.map((r) => notificationEvent("created", r)),
    );
}
