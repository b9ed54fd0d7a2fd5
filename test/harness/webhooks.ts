import { afterEach } from "vitest";
import type { WebhookDeps, WebhookMessage } from "../../src/domain/webhook-delivery/deps";
import { recordEvent } from "../../src/events/outbox";
import { STRICT, setOutboundTransport } from "../../src/platform/outbound";
import { userJwt } from "./principals";
import { api, type CallOptions, type TestTenant, type Untyped } from "./tenant";
import { dbOf } from "./tenant-db";

/**
 * Webhook test helpers. Nothing leaves the Worker: `receivers()` installs an outbound transport
 * that answers from per-URL handlers (unknown URLs fail like a refused connection) and records
 * every request; it is restored after each test.
 */

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
  redirect: string;
}

export type Handler = (req: Request, n: number) => Response | Promise<Response>;

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** Installs handlers keyed by URL (exact) and returns the log of what reached them. */
export function receivers(handlers: Record<string, Handler>): Received[] {
  const log: Received[] = [];
  const counts = new Map<string, number>();
  restore?.();
  restore = setOutboundTransport(async (req) => {
    const handler = handlers[req.url];
    if (!handler) throw new Error(`connection refused (${req.url})`);
    const body = await req.clone().text();
    log.push({ url: req.url, headers: Object.fromEntries(req.headers), body, redirect: req.redirect });
    const n = (counts.get(req.url) ?? 0) + 1;
    counts.set(req.url, n);
    return handler(req, n);
  });
  return log;
}

/** A handler that never answers: only the sender's timeout ends it. */
export const hang: Handler = (req) =>
  new Promise((_, reject) => req.signal.addEventListener("abort", () => reject(new Error("aborted"))));

/** Calls a webhooks route as the workspace owner (the routes are JWT only). */
export async function ownerApi<T = Untyped>(t: TestTenant, path: string, opts: CallOptions = {}) {
  return api<T>(t, path, { auth: { jwt: await userJwt(t) }, ...opts });
}

export async function createEndpoint(t: TestTenant, body: Record<string, unknown>) {
  const res = await ownerApi(t, "/webhooks/endpoints", { body });
  if (res.status !== 201) throw new Error(`create endpoint answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; secret: string; url: string };
}

/** A hand-driven clock and Queue for the delivery code, so schedules are checked without waiting. */
export function driver(t: TestTenant, start = new Date()) {
  const clock = { now: start };
  const sent: { body: WebhookMessage; delaySeconds?: number }[] = [];
  const queue = {
    sendBatch: async (msgs: Iterable<MessageSendRequest<WebhookMessage>>) =>
      void sent.push(...[...msgs].map((m) => ({ body: m.body, delaySeconds: m.delaySeconds }))),
  } as unknown as WebhookDeps["queue"];
  const deps = async (): Promise<WebhookDeps> => ({
    db: await dbOf(t),
    tenantId: t.id,
    queue,
    policy: STRICT,
    now: () => clock.now,
    scale: 1,
  });
  const advance = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  return { clock, sent, deps, advance };
}

/**
 * An outbox event recorded straight into the tenant database and never dispatched, so the real
 * Queue consumer does not deliver it behind the test's back.
 */
export async function storedEvent(
  t: TestTenant,
  type = "asset.updated",
  payload: Record<string, unknown> = { id: "ast_1", name: "Laptop", changes: ["name"] },
) {
  const [row] = await recordEvent(await dbOf(t), {
    type,
    subjectId: String(payload.id ?? "x"),
    payload,
    actor: "usr_test",
  }).returning();
  return row!;
}
