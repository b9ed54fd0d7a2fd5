import { describe, expect, it } from "vitest";
import type { Kit } from "../../src/modules/kits";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { ask, asset, requester } from "../harness/requests-helpers";
import { api, createTenant } from "../harness/tenant";

describe("a kit is requestable only when everything in it is", () => {
  it("refuses the self-service role a kit holding a non-requestable asset, naming it, as for the asset alone", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const cam = await asset(t, "Camera");
    const server = await asset(t, "Server", false);
    const kit = await api<{ id: string }>(t, "/kits", { body: { name: "Mixed kit", assetIds: [cam.id, server.id] } });
    expect(kit.status, JSON.stringify(kit.body)).toBe(201);

    const alone = await api<ErrorBody>(t, "/requests", { body: { assetId: server.id }, auth: { jwt: rae.jwt } });
    expect(alone.status).toBe(400);
    const res = await api<ErrorBody>(t, "/requests", { body: { kitId: kit.body.id }, auth: { jwt: rae.jwt } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe(alone.body.code);
    expect(res.body.details).toEqual([{ path: "body.kitId", message: expect.stringContaining(server.id) }]);
    expect(res.body.message).toContain(server.id);
    expect(res.body.message).not.toContain(cam.id);

    // A member (not self-service) may still ask for it; once every item is requestable, so may Rae.
    const member = await createUser(t, "member");
    await seedPerson(t, { name: "Mo Member", email: member.email });
    await ask(t, member, { kitId: kit.body.id });
    const opened = await api(t, `/inventory-items/${server.id}`, { method: "PATCH", body: { requestable: true } });
    expect(opened.status).toBe(200);
    await ask(t, rae, { kitId: kit.body.id });
  });

  it("lists to the self-service role only the kits whose every item is requestable", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const cam = await asset(t, "Camera");
    const lens = await asset(t, "Lens");
    const server = await asset(t, "Server", false);
    const open = await api<{ id: string }>(t, "/kits", { body: { name: "Camera kit", assetIds: [cam.id, lens.id] } });
    const mixed = await api<{ id: string }>(t, "/kits", { body: { name: "Mixed kit", assetIds: [server.id] } });
    const empty = await api<{ id: string }>(t, "/kits", { body: { name: "Empty kit" } });
    const ids = (page: Page<Kit>) => page.items.map((k) => k.id).sort();
    const all = await api<Page<Kit>>(t, "/kits");
    expect(ids(all.body)).toEqual([open.body.id, mixed.body.id, empty.body.id].sort());
    const mine = await api<Page<Kit>>(t, "/kits", { auth: { jwt: rae.jwt } });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(ids(mine.body)).toEqual([open.body.id]);
  });
});
