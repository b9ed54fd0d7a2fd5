import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { runDueDelivery } from "../../src/domain/webhook-delivery/deliver";
import { fanOut } from "../../src/domain/webhook-delivery/fanout";
import type { InventoryItem } from "../../src/modules/assets";
import type { WebhookDelivery, WebhookEndpointWithSecret } from "../../src/modules/webhooks";
import type { Page } from "../../src/platform/pagination";
import { eventually } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";
import { createEndpoint, driver, ownerApi, type Received, receivers, storedEvent } from "../harness/webhooks";

/*
 * Through the real local Queue: a write's outbox row is dispatched after the response, the event
 * consumer fans it out, the webhook queue's consumer sends it to the (stubbed) endpoint. The
 * receiving side verifies each delivery with the `standardwebhooks` package, as an integrator would.
 */

const received = (log: Received[], type: string) =>
  eventually(async () => log.find((r) => JSON.parse(r.body).type === type), 15_000);

describe("webhooks end to end", () => {
  it("delivers signed asset events that standardwebhooks verifies, with the resource and changed fields", async () => {
    const t = await createTenant();
    const url = "https://hooks.example.com/e2e";
    const log = receivers({ [url]: () => new Response("ok") });
    const ep = await createEndpoint(t, { url, eventTypes: ["asset.created", "asset.updated"] });
    const wh = new Webhook(ep.secret);

    const asset = await api<InventoryItem>(t, "/inventory-items", { body: { name: "Laptop 7" } });
    expect(asset.status).toBe(201);
    const created = await received(log, "asset.created");
    const payload = wh.verify(created.body, created.headers) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id: created.headers["webhook-id"],
      type: "asset.created",
      tenantId: t.id,
      timestamp: expect.any(String),
      data: { id: asset.body.id, name: "Laptop 7" },
    });
    expect(created.headers["content-type"]).toBe("application/json");

    await api(t, `/inventory-items/${asset.body.id}`, { method: "PATCH", body: { name: "Laptop 8" } });
    const updated = await received(log, "asset.updated");
    const upd = wh.verify(updated.body, updated.headers) as Record<string, unknown>;
    expect(upd.data).toMatchObject({ id: asset.body.id, name: "Laptop 8", changes: ["name"] });

    // A tampered body or another secret fails verification.
    expect(() => wh.verify(updated.body.replace("Laptop 8", "Laptop 9"), updated.headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(`whsec_${btoa("x".repeat(32))}`).verify(updated.body, updated.headers)).toThrow(
      WebhookVerificationError,
    );

    // The delivery is recorded, succeeded, with its attempt.
    const list = await eventually(async () => {
      const res = await ownerApi<Page<WebhookDelivery>>(t, `/webhooks/deliveries?endpointId=${ep.id}&status=succeeded`);
      return res.body.items.length === 2 ? res : undefined;
    });
    expect(list.body.items.map((d: { eventType: string }) => d.eventType)).toEqual(["asset.updated", "asset.created"]);
    // Types the endpoint did not subscribe to are not delivered.
    await api(t, "/categories", { body: { name: "Not subscribed" } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(log.filter((r) => JSON.parse(r.body).type.startsWith("category."))).toEqual([]);
  }, 90_000); // two events through the Queue and the delivery consumer: slow on a loaded machine

  it("during a rotation both secrets verify; after 24 hours only the new one signs", async () => {
    const t = await createTenant();
    const url = "https://hooks.example.com/rotate";
    const log = receivers({ [url]: () => new Response("ok") });
    const ep = await createEndpoint(t, { url });
    const rotated = await ownerApi<WebhookEndpointWithSecret>(t, `/webhooks/endpoints/${ep.id}/rotate-secret`, {
      method: "POST",
    });
    expect(rotated.status).toBe(200);
    const next: string = rotated.body.secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(ep.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    await api(t, "/inventory-items", { body: { name: "Rotating" } });
    const during = await received(log, "asset.created");
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    // A receiver still on the old secret and one already on the new both accept it.
    expect(new Webhook(ep.secret).verify(during.body, during.headers)).toMatchObject({ type: "asset.created" });
    expect(new Webhook(next).verify(during.body, during.headers)).toMatchObject({ type: "asset.created" });

    const d = driver(t, new Date(Date.now() + 24 * 3_600_000 + 60_000));
    const [delivery] = await fanOut(await d.deps(), await storedEvent(t, "asset.updated"), "event");
    await runDueDelivery(await d.deps(), delivery!.id);
    const after = log.at(-1)!;
    const signatures = after.headers["webhook-signature"]!.split(" ");
    expect(signatures).toHaveLength(1);
    const ts = new Date(Number(after.headers["webhook-timestamp"]) * 1000);
    expect(signatures[0]!).toBe(new Webhook(next).sign(after.headers["webhook-id"]!, ts, after.body));
    expect(signatures[0]!).not.toBe(new Webhook(ep.secret).sign(after.headers["webhook-id"]!, ts, after.body));
  });
});
