import { describe, expect, it } from "vitest";
import type { ObjectUpload } from "../../src/modules/files";
import type { RealtimeTicket } from "../../src/modules/notifications";
import type { CreatedInvite } from "../../src/modules/users";
import type { ErrorBody } from "../../src/platform/schemas";
import { userJwt } from "../harness/principals";
import { api, call, createTenant, type Failure, TEST_DOMAIN } from "../harness/tenant";

/** Hosts are checked whole and every URL handed out comes from BASE_URL. */
describe("hosts and generated URLs", () => {
  it("builds invite, upload and realtime URLs from the configured base, not from the request", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    // Same workspace reached over another scheme and port: the URLs still name https://<slug>.inventory.test.
    const odd = `http://${t.slug}.${TEST_DOMAIN}:9999/api/v1`;
    const configured = `https://${t.slug}.${TEST_DOMAIN}/api/v1`;
    const invite = await call<CreatedInvite>(`${odd}/users/invites`, {
      body: { email: `x-${Date.now()}@example.com`, role: "member" },
      auth: { jwt },
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    expect(invite.body.acceptUrl).toBe(
      `https://${t.slug}.${TEST_DOMAIN}/join#token=${encodeURIComponent(invite.body.token)}`,
    );
    const upload = await call<ObjectUpload>(`${odd}/objects`, {
      body: { contentType: "image/png", size: 10 },
      auth: { jwt },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(upload.body.uploadUrl.startsWith(`${configured}/objects/upload?`)).toBe(true);
    const ticket = await call<RealtimeTicket>(`${odd}/notifications/realtime-ticket`, {
      method: "POST",
      auth: { jwt },
    });
    expect(ticket.status).toBe(201);
    expect(ticket.body.url.startsWith(`wss://${t.slug}.${TEST_DOMAIN}/api/v1/notifications/realtime?ticket=`)).toBe(
      true,
    );
  });

  it("serves a workspace only on <slug>.<base domain>", async () => {
    const t = await createTenant();
    expect((await api(t, "/categories")).status).toBe(200);
    for (const host of [`${t.slug}.evil.${TEST_DOMAIN}`, `${t.slug}.localhost`, `${t.slug}.example.com`, TEST_DOMAIN]) {
      const res = await call<ErrorBody>(`https://${host}/api/v1/categories`, { auth: { apiKey: t.apiKey } });
      expect(res.status, host).toBe(404);
      expect(res.body.message).toContain(`<slug>.${TEST_DOMAIN}`);
    }
  });

  it("answers the bare base URL with pointers instead of a 404", async () => {
    // The bare base URL answers plain pointers (no route schema).
    const res = await call<{ docs: string }>(`https://${TEST_DOMAIN}/`);
    expect(res.status).toBe(200);
    expect(res.body.docs).toBe(`https://demo.${TEST_DOMAIN}/api/v1/docs`);
  });

  it("says 'required' for a missing field and names JSON for a body without its content type", async () => {
    const t = await createTenant();
    const missing = await api<Failure>(t, "/categories", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toContainEqual({ path: "body.name", message: "required" });
    const plain = await api<ErrorBody>(t, "/categories", {
      body: JSON.stringify({ name: "x" }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    expect(plain.body.message).toContain("application/json");
  });
});
