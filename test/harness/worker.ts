import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Bindings } from "../../src/env";
import type { EventMessage } from "../../src/events/types";
import { fetchWith } from "./contract";
import type { TestTenant } from "./tenant";

/** A Queue binding whose sends always fail, standing in for a Queue outage. */
export const failingQueue = {
  send: async () => {
    throw new Error("queue unavailable");
  },
  sendBatch: async () => {
    throw new Error("queue unavailable");
  },
} as unknown as Queue<EventMessage>;

/**
 * Calls the Worker's fetch handler directly with a fresh ExecutionContext and waits for its
 * `waitUntil` work (the after-response outbox dispatch), so tests need not poll. `bindings`
 * replaces the environment, e.g. `{ ...env, EVENTS: failingQueue }`.
 */
export async function fetchAndSettle(
  t: TestTenant,
  path: string,
  init: { method: string; body?: unknown },
  bindings: Bindings = env,
) {
  const ctx = createExecutionContext();
  const req = new Request(`${t.base}${path}`, {
    method: init.method,
    headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const res = await fetchWith(req, bindings, ctx);
  const body = await res.json<Record<string, unknown>>();
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}
