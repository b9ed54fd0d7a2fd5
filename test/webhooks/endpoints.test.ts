import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type {
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookVerifyResult,
} from "../../src/modules/webhooks";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, userJwt } from "../harness/principals";
import { api, createTenant, type Failure } from "../harness/tenant";
import { createEndpoint, ownerApi, receivers } from "../harness/webhooks";

describe("webhook endpoints", () => {
  it("creates with a whsec_ secret shown once, then lists, gets, updates and deletes", async () => {
    const t = await createTenant();
    const created = await ownerApi<WebhookEndpointWithSecret>(t, "/webhooks/endpoints", {
      body: {
        url: "https://hooks.example.com/inv",
        description: "CRM",
        eventTypes: ["asset.created", "asset.updated"],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^whe_/),
      url: "https://hooks.example.com/inv",
      enabled: true,
      eventTypes: ["asset.created", "asset.updated"],
      disabledReason: null,
    });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const bytes = atob(secret.slice(6)).length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(64);
    expect(created.body.secretPrefix).toBe(secret.slice(0, 10));

    // Read as the secret-bearing shape to check the secret is absent.
    const got = await ownerApi<Partial<WebhookEndpointWithSecret>>(t, `/webhooks/endpoints/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(JSON.stringify(got.body)).not.toContain(secret.slice(10));
    const list = await ownerApi<Page<WebhookEndpoint>>(t, "/webhooks/endpoints");
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(10));

    const off = await ownerApi(t, `/webhooks/endpoints/${created.body.id}`, {
      method: "PATCH",
      body: { enabled: false, eventTypes: null },
    });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: "manual", eventTypes: null });
    const on = await ownerApi(t, `/webhooks/endpoints/${created.body.id}`, {
      method: "PATCH",
      body: { enabled: true },
    });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });

    expect((await ownerApi(t, `/webhooks/endpoints/${created.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await ownerApi(t, `/webhooks/endpoints/${created.body.id}`)).status).toBe(404);
  });

  it("validates event types, URL length and the per-workspace limit", async () => {
    const t = await createTenant();
    const bad = await ownerApi<Failure<unknown>>(t, "/webhooks/endpoints", {
      body: { url: "https://hooks.example.com/x", eventTypes: ["asset.exploded"] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.details)).toContain("eventTypes");
    expect(
      (await ownerApi(t, "/webhooks/endpoints", { body: { url: "https://hooks.example.com/x", eventTypes: [] } }))
        .status,
    ).toBe(400);
    expect(
      (
        await ownerApi(t, "/webhooks/endpoints", {
          body: { url: "https://hooks.example.com/x", eventTypes: ["asset.created", "asset.created"] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await ownerApi(t, "/webhooks/endpoints", { body: { url: `https://hooks.example.com/${"x".repeat(2048)}` } }))
        .status,
    ).toBe(400);
    for (let i = 0; i < 20; i++) await createEndpoint(t, { url: `https://hooks.example.com/${i}` });
    const over = await ownerApi(t, "/webhooks/endpoints", { body: { url: "https://hooks.example.com/21" } });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: "conflict", details: { limit: 20 } });
  });

  it("refuses unsafe addresses at save in every spelling, and plain http outside development", async () => {
    const t = await createTenant();
    const unsafe = [
      "https://127.0.0.1/h",
      "https://2130706433/h",
      "https://0x7f.1/h",
      "https://0177.0.0.1/h",
      "https://[::1]/h",
      "https://[::ffff:127.0.0.1]/h",
      "https://localhost/h",
      "https://api.localhost./h",
      "https://10.0.0.8/h",
      "https://192.168.0.1/h",
      "https://172.20.0.1/h",
      "https://100.100.1.1/h",
      "https://169.254.169.254/latest",
      "https://[::ffff:0:a9fe:a9fe]/",
      "http://[::ffff:0:a00:1]/",
      "https://[::ffff:0:a00:1]/",
      "https://[fe80::1]/h",
      "https://[fd00::1]/h",
      "https://224.0.0.251/h",
      "https://printer.local/h",
      "https://svc.internal/h",
      "http://hooks.example.com/h",
      "ftp://hooks.example.com/h",
    ];
    for (const url of unsafe) {
      const res = await ownerApi<ErrorBody>(t, "/webhooks/endpoints", { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    const ep = await createEndpoint(t, { url: "https://hooks.example.com/ok" });
    expect(
      (await ownerApi(t, `/webhooks/endpoints/${ep.id}`, { method: "PATCH", body: { url: "https://[::ffff:a00:1]/" } }))
        .status,
    ).toBe(400);
    expect((await ownerApi<Page<WebhookEndpoint>>(t, "/webhooks/endpoints")).body.items).toHaveLength(1);
  });

  it("is JWT only, for owners and admins, on plans with webhooks", async () => {
    const t = await createTenant();
    const free = await createTenant({ plan: "free" });
    const member = await createUser(t, "member");
    const admin = await createUser(t, "admin");
    const key = await api<ErrorBody>(t, "/webhooks/endpoints");
    expect(key.status).toBe(403);
    expect(key.body.code).toBe("forbidden");
    expect((await api(t, "/webhooks/endpoints", { auth: { jwt: member.jwt } })).status).toBe(403);
    expect((await api(t, "/webhooks/endpoints", { auth: { jwt: admin.jwt } })).status).toBe(200);
    const plan = await api<ErrorBody>(free, "/webhooks/deliveries", { auth: { jwt: await userJwt(free) } });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
  });

  it("hides another workspace's endpoints (404)", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const ep = await createEndpoint(a, { url: "https://hooks.example.com/a" });
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/verify"],
      ["POST", "/rotate-secret"],
    ] as const) {
      const res = await ownerApi(b, `/webhooks/endpoints/${ep.id}${path}`, {
        method,
        ...(method === "PATCH" ? { body: { description: "x" } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await ownerApi(a, `/webhooks/endpoints/${ep.id}`)).status).toBe(200);
  });

  it("verify sends a signed webhook.verification event now and records lastVerifiedAt", async () => {
    const t = await createTenant();
    const ep = await createEndpoint(t, { url: "https://hooks.example.com/verify" });
    const log = receivers({ "https://hooks.example.com/verify": () => new Response("ok") });
    const res = await ownerApi<WebhookVerifyResult>(t, `/webhooks/endpoints/${ep.id}/verify`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      statusCode: 200,
      error: null,
      verifiedAt: expect.any(String),
      latencyMs: expect.any(Number),
    });
    const payload = new Webhook(ep.secret).verify(log[0]!.body, log[0]!.headers) as {
      type: string;
      data: { endpointId: string };
      tenantId: string;
    };
    expect(payload).toMatchObject({ type: "webhook.verification", tenantId: t.id, data: { endpointId: ep.id } });
    expect((await ownerApi<WebhookEndpoint>(t, `/webhooks/endpoints/${ep.id}`)).body.lastVerifiedAt).toBe(
      res.body.verifiedAt,
    );

    receivers({ "https://hooks.example.com/verify": () => new Response("nope", { status: 401 }) });
    const failed = await ownerApi(t, `/webhooks/endpoints/${ep.id}/verify`, { method: "POST" });
    expect(failed.body).toMatchObject({ ok: false, statusCode: 401, error: "HTTP 401", verifiedAt: null });
    expect((await ownerApi<WebhookEndpoint>(t, `/webhooks/endpoints/${ep.id}`)).body.lastVerifiedAt).toBe(
      res.body.verifiedAt,
    );
  });

  it("lists the event catalogue, paginated", async () => {
    const t = await createTenant();
    // Every page of the catalogue (it is longer than one page of 100).
    const types: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Page<WebhookEventType> } = await ownerApi<Page<WebhookEventType>>(
        t,
        `/webhooks/event-types?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      types.push(...page.body.items.map((e: { type: string }) => e.type));
      cursor = page.body.nextCursor;
    } while (cursor);
    for (const type of [
      "asset.created",
      "asset.updated",
      "asset.checked_out",
      "asset.checked_in",
      "asset.status_changed",
      "asset.deleted",
      "person.deactivated",
      "session.completed",
      "maintenance.completed",
      "category.created",
      "location.updated",
      "custom_field.deleted",
    ]) {
      expect(types).toContain(type);
    }
    expect(types).not.toContain("webhook.verification");
    const page = await ownerApi<Page<WebhookEventType>>(t, "/webhooks/event-types?limit=2");
    const next = await ownerApi<Page<WebhookEventType>>(
      t,
      `/webhooks/event-types?limit=2&cursor=${page.body.nextCursor}`,
    );
    expect([...page.body.items, ...next.body.items].map((e: { type: string }) => e.type)).toEqual(types.slice(0, 4));
  });
});
