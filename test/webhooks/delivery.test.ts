import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../src/db/tenant/webhooks";
import { runDueDelivery } from "../../src/domain/webhook-delivery/deliver";
import { fanOut } from "../../src/domain/webhook-delivery/fanout";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../src/domain/webhook-delivery/schedule";
import { sweepDueDeliveries } from "../../src/domain/webhook-delivery/sweep";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { createEndpoint, driver, hang, receivers, storedEvent } from "../harness/webhooks";

const URL_A = "https://hooks.example.com/a";
const H = 3_600_000;

async function setup(handler: Parameters<typeof receivers>[0][string], opts: { url?: string } = {}) {
  const t = await createTenant();
  const url = opts.url ?? URL_A;
  const endpoint = await createEndpoint(t, { url });
  const log = receivers({ [url]: handler });
  const d = driver(t);
  const event = await storedEvent(t);
  const [delivery] = await fanOut(await d.deps(), event, "event");
  return { t, endpoint, log, d, event, delivery: delivery! };
}

const deliveryRow = async (t: TestTenant, id: string) =>
  (await dbOf(t)).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
const attemptsOf = async (t: TestTenant, id: string) =>
  (await dbOf(t))
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(webhookAttempts.at)
    .all();
const endpointRow = async (t: TestTenant, id: string) =>
  (await dbOf(t)).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();

/** Runs the delivery at its due time, as its Queue message would. */
async function runAtDue(s: Awaited<ReturnType<typeof setup>>) {
  const row = await deliveryRow(s.t, s.delivery.id);
  if (row?.nextAttemptAt) s.d.clock.now = new Date(Math.max(s.d.clock.now.getTime(), Date.parse(row.nextAttemptAt)));
  return runDueDelivery(await s.d.deps(), s.delivery.id);
}

describe("webhook delivery schedule", () => {
  it("enqueues the first attempt at once, then retries a 500 on the backoff schedule with jitter until dead", async () => {
    const s = await setup(() => new Response("boom", { status: 500 }));
    expect(s.d.sent).toEqual([{ body: { tenantId: s.t.id, deliveryIds: [s.delivery.id] }, delaySeconds: undefined }]);
    const waits: number[] = [];
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      const outcome = await runAtDue(s);
      const attemptedAt = s.d.clock.now.getTime();
      expect(outcome).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500", responseBody: "boom" });
      const row = (await deliveryRow(s.t, s.delivery.id))!;
      expect(row.attemptCount).toBe(i);
      if (i < MAX_ATTEMPTS) {
        expect(row.status).toBe("retrying");
        waits.push(Date.parse(row.nextAttemptAt!) - attemptedAt);
      } else {
        expect(row).toMatchObject({ status: "dead", nextAttemptAt: null });
      }
    }
    // now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, each within ±10% jitter
    expect(waits).toHaveLength(RETRY_DELAYS_MS.length);
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i]! * 0.9 - 1);
      expect(w).toBeLessThanOrEqual(RETRY_DELAYS_MS[i]! * 1.1 + 1);
    });
    // Waits up to 10 h ride the Queue's delay; the 24 h wait (over its 12 h cap) sends no message.
    const delays = s.d.sent.slice(1).map((m) => m.delaySeconds!);
    expect(delays).toHaveLength(RETRY_DELAYS_MS.length - 1);
    expect(Math.max(...delays)).toBeLessThanOrEqual(12 * 3600);
    expect(s.log).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(s.log.map((r) => r.headers["webhook-id"]))).toEqual(new Set([s.event.id]));
    expect(await attemptsOf(s.t, s.delivery.id)).toHaveLength(MAX_ATTEMPTS);
    // dead is final: a late duplicate message sends nothing
    expect(await runDueDelivery(await s.d.deps(), s.delivery.id)).toBeUndefined();
    expect(s.log).toHaveLength(MAX_ATTEMPTS);
  });

  it("the cron sweep picks up a wait longer than the Queue's 12-hour cap once it is due", async () => {
    const s = await setup((_req, n) => (n < 8 ? new Response(null, { status: 503 }) : new Response("ok")));
    for (let i = 0; i < 7; i++) await runAtDue(s);
    const row = (await deliveryRow(s.t, s.delivery.id))!;
    const wait = Date.parse(row.nextAttemptAt!) - s.d.clock.now.getTime();
    expect(wait).toBeGreaterThan(20 * H);
    const messages = s.d.sent.length;
    expect(await sweepDueDeliveries(await s.d.deps())).toBe(0); // not due yet
    s.d.advance(wait + 3 * 60_000);
    expect(await sweepDueDeliveries(await s.d.deps())).toBe(1);
    expect(s.d.sent).toHaveLength(messages + 1);
    expect(s.d.sent.at(-1)!.body).toEqual({ tenantId: s.t.id, deliveryIds: [s.delivery.id] });
    expect(await runDueDelivery(await s.d.deps(), s.delivery.id)).toMatchObject({ ok: true });
    expect((await deliveryRow(s.t, s.delivery.id))!.status).toBe("succeeded");
  });

  it("gives up on an endpoint that does not answer within 15 s", async () => {
    const s = await setup(hang);
    // The 15 s pass on a fake clock (the sender's timer, and the latency it reports from the same
    // clock: a shorter timeout would report less), once the endpoint has the request.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const attempt = runAtDue(s);
      await vi.waitFor(() => expect(s.log).toHaveLength(1));
      vi.advanceTimersByTime(15_000);
      const outcome = await attempt;
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timeout after 15000 ms" });
      expect(outcome!.latencyMs).toBeGreaterThanOrEqual(15_000);
    } finally {
      vi.useRealTimers();
    }
    expect((await deliveryRow(s.t, s.delivery.id))!.status).toBe("retrying");
  });

  it("does not follow a redirect: a 3xx is a failure", async () => {
    const s = await setup(() => new Response(null, { status: 301, headers: { location: "https://169.254.169.254/" } }));
    expect(await runAtDue(s)).toMatchObject({
      ok: false,
      statusCode: 301,
      error: "redirect not followed (HTTP 301 to https://169.254.169.254/)",
    });
    expect(s.log).toHaveLength(1);
    expect(s.log[0]!.redirect).toBe("manual");
  });

  it("honours Retry-After on a 429 instead of the schedule", async () => {
    const s = await setup(() => new Response("slow down", { status: 429, headers: { "retry-after": "120" } }));
    await runAtDue(s);
    await runAtDue(s); // second wait would be 5 min by the schedule
    const row = (await deliveryRow(s.t, s.delivery.id))!;
    expect(Date.parse(row.nextAttemptAt!) - s.d.clock.now.getTime()).toBe(120_000);
    expect(s.d.sent.at(-1)!.delaySeconds).toBe(120);
  });

  it("disables the endpoint at once on 410 Gone and ends the delivery dead", async () => {
    const s = await setup(() => new Response("gone", { status: 410 }));
    expect(await runAtDue(s)).toMatchObject({ ok: false, gone: true });
    expect((await deliveryRow(s.t, s.delivery.id))!).toMatchObject({
      status: "dead",
      attemptCount: 1,
      lastStatusCode: 410,
    });
    expect(await endpointRow(s.t, s.endpoint.id)).toMatchObject({ enabled: false, disabledReason: "gone" });
    // Further events are not delivered to a disabled endpoint.
    expect(await fanOut(await s.d.deps(), await storedEvent(s.t), "event")).toEqual([]);
  });

  it("recovers: failures then a success finish the delivery and reset the endpoint's failure record", async () => {
    const s = await setup((_req, n) =>
      n <= 2 ? new Response("down", { status: 502 }) : new Response(null, { status: 204 }),
    );
    await runAtDue(s);
    await runAtDue(s);
    expect(await endpointRow(s.t, s.endpoint.id)).toMatchObject({
      consecutiveFailures: 2,
      failingSince: expect.any(String),
      lastError: "HTTP 502",
    });
    expect(await runAtDue(s)).toMatchObject({ ok: true, statusCode: 204 });
    expect(await deliveryRow(s.t, s.delivery.id)).toMatchObject({
      status: "succeeded",
      attemptCount: 3,
      nextAttemptAt: null,
    });
    expect(await endpointRow(s.t, s.endpoint.id)).toMatchObject({
      consecutiveFailures: 0,
      failingSince: null,
      lastError: null,
      lastSuccessAt: expect.any(String),
    });
    const attempts = await attemptsOf(s.t, s.delivery.id);
    expect(attempts.map((a) => [a.ok, a.statusCode])).toEqual([
      [false, 502],
      [false, 502],
      [true, 204],
    ]);
  });

  it("keeps the first KB of the answer with the attempt", async () => {
    const s = await setup(() => new Response("é".repeat(5000), { status: 500 }));
    await runAtDue(s);
    const [attempt] = await attemptsOf(s.t, s.delivery.id);
    expect(new TextEncoder().encode(attempt!.responseBody!).byteLength).toBeLessThanOrEqual(1024);
    expect(attempt!.responseBody!.startsWith("éé")).toBe(true);
  });

  it("a duplicate message runs the attempt once (claim with a lease)", async () => {
    const s = await setup(async () => {
      await new Promise((r) => setTimeout(r, 50));
      return new Response("ok");
    });
    const deps = await s.d.deps();
    const outcomes = await Promise.all([
      runDueDelivery(deps, s.delivery.id),
      runDueDelivery(deps, s.delivery.id),
      runDueDelivery(deps, s.delivery.id),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(s.log).toHaveLength(1);
  });

  it("auto-disables an endpoint failing for 5 days and notifies the owners", async () => {
    const s = await setup(() => new Response(null, { status: 500 }));
    const db = await dbOf(s.t);
    await runAtDue(s);
    expect((await endpointRow(s.t, s.endpoint.id))!.enabled).toBe(true);
    // Later events keep failing; 5 days after the first failure the endpoint is disabled.
    s.d.advance(5 * 24 * H + 60_000);
    const later = await fanOut(await s.d.deps(), await storedEvent(s.t), "event");
    // The owners' notifications are mailed at once: the disabling run asks the notification queue to plan them.
    let plans = 0;
    const planning = { ...(await s.d.deps()), planNotifications: async () => void plans++ };
    expect(await runDueDelivery(planning, later[0]!.id)).toMatchObject({ ok: false });
    expect(plans).toBe(1);
    expect(await endpointRow(s.t, s.endpoint.id)).toMatchObject({ enabled: false, disabledReason: "failing" });
    const notes = await db
      .select()
      .from(notifications)
      .where(eq(notifications.type, "webhook.endpoint_disabled"))
      .all();
    expect(notes.map((n) => n.userId)).toEqual([s.t.owner.id]);
    expect(notes[0]!.data).toMatchObject({ endpointId: s.endpoint.id, reason: "failing" });
    // The first delivery's next try finds the endpoint disabled: dead, nothing sent.
    const sentBefore = s.log.length;
    await runAtDue(s);
    expect(await deliveryRow(s.t, s.delivery.id)).toMatchObject({
      status: "dead",
      lastError: "endpoint disabled (failing)",
    });
    expect(s.log).toHaveLength(sentBefore);
  });

  it.each(["https://[::ffff:169.254.169.254]/", "https://[::ffff:0:a9fe:a9fe]/", "https://[::ffff:0:a00:1]/"])(
    "never sends to an address the guard refuses, even one written past the API (%s)",
    async (url) => {
      const s = await setup(() => new Response("ok"));
      await (await dbOf(s.t)).update(webhookEndpoints).set({ url }).where(eq(webhookEndpoints.id, s.endpoint.id)).run();
      expect(await runAtDue(s)).toMatchObject({
        ok: false,
        statusCode: null,
        error: expect.stringMatching(/^address refused/),
      });
      expect(s.log).toHaveLength(0);
    },
  );
});
