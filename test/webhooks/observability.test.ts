import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { runDueDelivery } from "../../src/domain/webhook-delivery/deliver";
import { fanOut } from "../../src/domain/webhook-delivery/fanout";
import { MAX_ATTEMPTS } from "../../src/domain/webhook-delivery/schedule";
import type {
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEventReplayResult,
  WebhookHealthReport,
} from "../../src/modules/webhooks";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createTenant, type TestTenant } from "../harness/tenant";
import { createEndpoint, driver, ownerApi, receivers, storedEvent } from "../harness/webhooks";

const OK = "https://hooks.example.com/ok";
const BAD = "https://hooks.example.com/bad";

/** Two endpoints (one always failing) and `n` events fanned out to both and attempted once. */
async function arrange(n: number) {
  const t = await createTenant();
  let okCalls = 0;
  const log = receivers({
    [OK]: async () => {
      okCalls++;
      return new Response("fine");
    },
    [BAD]: () => new Response("broken", { status: 500 }),
  });
  const ok = await createEndpoint(t, { url: OK });
  const bad = await createEndpoint(t, { url: BAD, eventTypes: ["asset.updated"] });
  const d = driver(t);
  const events = [];
  for (let i = 0; i < n; i++) {
    const event = await storedEvent(t, i % 2 === 0 ? "asset.updated" : "asset.created", {
      id: `ast_${i}`,
      name: `A${i}`,
      changes: ["name"],
    });
    events.push(event);
    for (const delivery of await fanOut(await d.deps(), event, "event"))
      await runDueDelivery(await d.deps(), delivery.id);
  }
  return { t, ok, bad, d, events, log, okCalls: () => okCalls };
}

const q = <T = Page<WebhookDelivery>>(t: TestTenant, query: string) => ownerApi<T>(t, `/webhooks/deliveries${query}`);

describe("webhook observability", () => {
  it("lists deliveries newest first with filters and a cursor", async () => {
    const s = await arrange(4); // updated, created, updated, created: ok gets 4, bad gets 2
    const all = await q(s.t, "");
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(6);
    const ids = all.body.items.map((d: { id: string }) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());

    expect(
      (await q(s.t, `?endpointId=${s.bad.id}`)).body.items.every(
        (d: { endpointId: string }) => d.endpointId === s.bad.id,
      ),
    ).toBe(true);
    expect((await q(s.t, "?status=retrying")).body.items).toHaveLength(2);
    expect((await q(s.t, "?status=succeeded&eventType=asset.created")).body.items).toHaveLength(2);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await q(s.t, `?dateFrom=${encodeURIComponent(future)}`)).body.items).toHaveLength(0);
    expect((await q(s.t, `?dateTo=${encodeURIComponent(future)}`)).body.items).toHaveLength(6);

    const page1 = await q(s.t, "?limit=4");
    const page2 = await q(s.t, `?limit=4&cursor=${page1.body.nextCursor}`);
    expect([...page1.body.items, ...page2.body.items].map((d: { id: string }) => d.id)).toEqual(ids);
    expect(page2.body.nextCursor).toBeNull();

    for (const bad of [
      "?limit=0",
      "?limit=101",
      "?limit=x",
      "?status=lost",
      "?dateFrom=yesterday",
      `?dateFrom=${future}&dateTo=2020-01-01T00:00:00Z`,
      "?cursor=nonsense",
    ]) {
      const res = await q<ErrorBody>(s.t, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
  });

  it("shows a delivery with its signed payload and attempts; replays it with the same webhook-id", async () => {
    const s = await arrange(1);
    const [failed] = (await q(s.t, `?endpointId=${s.bad.id}`)).body.items;
    const detail = await ownerApi<WebhookDeliveryDetail>(s.t, `/webhooks/deliveries/${failed!.id}`);
    expect(detail.body).toMatchObject({
      status: "retrying",
      attemptCount: 1,
      payload: { id: s.events[0]!.id, type: "asset.updated", data: { name: "A0" } },
    });
    expect(detail.body.attempts).toEqual([
      expect.objectContaining({
        ok: false,
        statusCode: 500,
        responseBody: "broken",
        trigger: "scheduled",
        latencyMs: expect.any(Number),
      }),
    ]);

    // The receiver is fixed: a replay now succeeds, same payload and webhook-id.
    const ep = s.bad;
    const log = receivers({ [BAD]: () => new Response("fixed") });
    const replay = await ownerApi<WebhookDeliveryDetail>(s.t, `/webhooks/deliveries/${failed!.id}/replay`, {
      method: "POST",
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ status: "succeeded", attemptCount: 1 });
    expect(replay.body.attempts.map((a: { trigger: string; ok: boolean }) => [a.trigger, a.ok])).toEqual([
      ["scheduled", false],
      ["replay", true],
    ]);
    expect(log[0]!.headers["webhook-id"]).toBe(s.events[0]!.id);
    expect(log[0]!.body).toBe(JSON.stringify(detail.body.payload));
    expect(new Webhook(ep.secret).verify(log[0]!.body, log[0]!.headers)).toEqual(detail.body.payload);
  });

  it("replays a dead delivery, and refuses one whose endpoint is disabled (409)", async () => {
    const s = await arrange(1);
    const [failed] = (await q(s.t, `?endpointId=${s.bad.id}`)).body.items;
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      // at each due time (the whole schedule is under the 5 days that disable an endpoint)
      const { nextAttemptAt } = (await ownerApi<WebhookDeliveryDetail>(s.t, `/webhooks/deliveries/${failed!.id}`)).body;
      s.d.clock.now = new Date(nextAttemptAt!);
      await runDueDelivery(await s.d.deps(), failed!.id);
    }
    expect((await ownerApi<WebhookDeliveryDetail>(s.t, `/webhooks/deliveries/${failed!.id}`)).body.status).toBe("dead");
    const stillBroken = await ownerApi(s.t, `/webhooks/deliveries/${failed!.id}/replay`, { method: "POST" });
    expect(stillBroken.body).toMatchObject({ status: "dead" });
    receivers({ [BAD]: () => new Response("ok") });
    expect(
      (await ownerApi<WebhookDeliveryDetail>(s.t, `/webhooks/deliveries/${failed!.id}/replay`, { method: "POST" })).body
        .status,
    ).toBe("succeeded");

    await ownerApi(s.t, `/webhooks/endpoints/${s.bad.id}`, { method: "PATCH", body: { enabled: false } });
    const refused = await ownerApi<ErrorBody>(s.t, `/webhooks/deliveries/${failed!.id}/replay`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/disabled/);
  });

  it("replays an event to every endpoint subscribed now", async () => {
    const s = await arrange(1); // an asset.updated: both endpoints subscribed
    const third = await createEndpoint(s.t, { url: "https://hooks.example.com/new", eventTypes: ["asset.updated"] });
    await ownerApi(s.t, `/webhooks/endpoints/${s.ok.id}`, { method: "PATCH", body: { eventTypes: ["asset.created"] } });
    const res = await ownerApi<WebhookEventReplayResult>(s.t, `/webhooks/events/${s.events[0]!.id}/replay`, {
      method: "POST",
    });
    expect(res.status).toBe(202);
    expect(res.body.eventId).toBe(s.events[0]!.id);
    expect(res.body.deliveries.map((d: { endpointId: string }) => d.endpointId).sort()).toEqual(
      [s.bad.id, third.id].sort(),
    );
    expect(
      res.body.deliveries.every(
        (d: { source: string; status: string; eventId: string }) =>
          d.source === "replay" && d.status === "pending" && d.eventId === s.events[0]!.id,
      ),
    ).toBe(true);
    expect(
      (await ownerApi(s.t, "/webhooks/events/evt_00000000000000000000000000/replay", { method: "POST" })).status,
    ).toBe(404);
  });

  it("reports health per endpoint over a window", async () => {
    const s = await arrange(4);
    const res = await ownerApi<WebhookHealthReport>(s.t, "/webhooks/health");
    expect(res.status).toBe(200);
    expect(res.body.windowMinutes).toBe(60);
    const byId = Object.fromEntries(res.body.endpoints.map((e: { endpointId: string }) => [e.endpointId, e]));
    expect(byId[s.ok.id]).toMatchObject({
      attempts: 4,
      successes: 4,
      failures: 0,
      successRate: 1,
      p50LatencyMs: expect.any(Number),
      p95LatencyMs: expect.any(Number),
      enabled: true,
      consecutiveFailures: 0,
    });
    expect(byId[s.bad.id]).toMatchObject({
      attempts: 2,
      successes: 0,
      failures: 2,
      successRate: 0,
      lastError: "HTTP 500",
      consecutiveFailures: 2,
      failingSince: expect.any(String),
    });
    for (const bad of ["?windowMinutes=4", "?windowMinutes=1441", "?windowMinutes=abc", "?windowMinutes=7.5"]) {
      expect((await ownerApi(s.t, `/webhooks/health${bad}`)).status, bad).toBe(400);
    }
    expect((await ownerApi<WebhookHealthReport>(s.t, "/webhooks/health?windowMinutes=5")).body.windowMinutes).toBe(5);
  });

  it("hides another workspace's deliveries and events (404)", async () => {
    const s = await arrange(1);
    const other = await createTenant();
    const [delivery] = (await q(s.t, "")).body.items;
    expect((await ownerApi(other, `/webhooks/deliveries/${delivery!.id}`)).status).toBe(404);
    expect((await ownerApi(other, `/webhooks/deliveries/${delivery!.id}/replay`, { method: "POST" })).status).toBe(404);
    expect((await ownerApi(other, `/webhooks/events/${s.events[0]!.id}/replay`, { method: "POST" })).status).toBe(404);
    expect((await ownerApi<Page<WebhookDelivery>>(other, "/webhooks/deliveries")).body.items).toEqual([]);
  });
});
