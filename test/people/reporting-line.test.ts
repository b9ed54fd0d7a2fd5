import { describe, expect, it } from "vitest";
import type { Person } from "../../src/modules/people";
import type { ErrorBody } from "../../src/platform/schemas";
import { api, createTenant, type TestTenant } from "../harness/tenant";

const create = (t: TestTenant, body: Record<string, unknown>) => api<Person & ErrorBody>(t, "/people", { body });

describe("people: identity provider fields and the reporting line", () => {
  it("keeps externalId, costCenter and managerId, and refuses a taken externalId", async () => {
    const t = await createTenant();
    const boss = await create(t, { name: "Grace", externalId: "okta|00u1" });
    expect(boss.status).toBe(201);
    const ada = await create(t, { name: "Ada", costCenter: "CC-7", managerId: boss.body.id, externalId: "okta|00u2" });
    expect(ada.status).toBe(201);
    expect(ada.body).toMatchObject({ costCenter: "CC-7", managerId: boss.body.id, externalId: "okta|00u2" });

    const dup = await create(t, { name: "Other", externalId: "okta|00u1" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain("externalId 'okta|00u1'");
    const dupByPatch = await api<ErrorBody>(t, `/people/${ada.body.id}`, {
      method: "PATCH",
      body: { externalId: "okta|00u1" },
    });
    expect(dupByPatch.status).toBe(409);

    // A deleted person frees their externalId.
    expect((await api(t, `/people/${boss.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await create(t, { name: "New Grace", externalId: "okta|00u1" })).status).toBe(201);
  });

  it("refuses an unknown, deleted or self manager with a 400 naming the field", async () => {
    const t = await createTenant();
    const a = await create(t, { name: "A" });
    const unknown = await create(t, { name: "B", managerId: "per_nobody" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("managerId");
    const self = await api<ErrorBody>(t, `/people/${a.body.id}`, { method: "PATCH", body: { managerId: a.body.id } });
    expect(self.status).toBe(400);
    expect(JSON.stringify(self.body)).toContain("own manager");
    const gone = await create(t, { name: "Gone" });
    await api(t, `/people/${gone.body.id}`, { method: "DELETE" });
    const deleted = await api<ErrorBody>(t, `/people/${a.body.id}`, {
      method: "PATCH",
      body: { managerId: gone.body.id },
    });
    expect(deleted.status).toBe(400);
    const cleared = await api<Person>(t, `/people/${a.body.id}`, { method: "PATCH", body: { managerId: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.managerId).toBeNull();
  });
});
