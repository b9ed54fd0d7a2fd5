import { describe, expect, it } from "vitest";
import { loginOwner } from "../harness/auth";
import { outboxRows } from "../harness/outbox";
import { scim, scimToken } from "../harness/scim";
import { api, createTenant, type Failure } from "../harness/tenant";

type Res = Record<string, unknown> & { id: string };
type ScimErr = { status: string; scimType?: string; detail: string };
type Person = { id: string; email: string | null };
type Case = { id: string; personId: string; state: string };

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM: a User's person and workspace user are written with it, or not at all", () => {
  it("concurrent creates of one userName: one User, one person; the losers leave no person behind", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const emails = ["race.a@example.com", "race.b@example.com", "race.c@example.com", "race.d@example.com"];
    const results = await Promise.all(
      emails.map((email, i) =>
        scim<Res | ScimErr>(t, token, "/Users", {
          body: {
            schemas: [USER],
            userName: i % 2 ? "Racer@Example.com" : "racer@example.com",
            emails: [{ value: email, primary: true }],
          },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409))
      expect((r.body as ScimErr).scimType, JSON.stringify(r.body)).toBe("uniqueness");
    const people = await api<{ items: Person[] }>(t, "/people?q=race.&limit=100");
    expect(people.body.items.map((p) => p.email)).toHaveLength(1);
    // One person.created and one person.provisioned: no event of a write that did not happen.
    expect(await outboxRows(t, { type: "person.created" })).toHaveLength(1);
    expect(await outboxRows(t, { type: "person.provisioned" })).toHaveLength(1);
  });

  it("a group that gives a role makes the workspace user, its link and its role event together", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);
    await api(t, "/scim-group-mappings", { auth: { jwt }, body: { groupName: "Crew", role: "member" } });
    const u = await scim<Res>(t, token, "/Users", { body: { schemas: [USER], userName: "crew@example.com" } });
    const g = await scim<Res>(t, token, "/Groups", { body: { schemas: [GROUP], displayName: "Crew", members: [] } });
    const add = await scim(t, token, `/Groups/${g.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "add", path: "members", value: [{ value: u.body.id }] }] },
    });
    expect(add.status).toBe(204);
    const provisioned = await outboxRows(t, { type: "user.provisioned" });
    expect(provisioned).toHaveLength(1);
    const userId = provisioned[0]!.subjectId!;
    const changed = await outboxRows(t, { type: "user.role_changed", subjectId: userId });
    expect(changed).toHaveLength(1);
    // Written in one batch: the two events sit next to each other in the outbox (ids made in one
    // millisecond need not sort in the order they were made, so either way round).
    const all = (await outboxRows(t)).map((e) => e.id);
    expect(Math.abs(all.indexOf(provisioned[0]!.id) - all.indexOf(changed[0]!.id))).toBe(1);
    expect(changed[0]!.payload).toMatchObject({ role: "member", previousRole: null, scimUserId: u.body.id });
    // The link holds: leaving the group ends this user's access (found through the link).
    const rm = await scim(t, token, `/Groups/${g.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${u.body.id}"]` }] },
    });
    expect(rm.status).toBe(204);
    const users = await api<{ items: { id: string; status: string }[] }>(t, "/users", { auth: { jwt } });
    expect(users.body.items.find((x) => x.id === userId)?.status).toBe("deactivated");
  });
});

describe("DELETE /people/{id} while an offboarding case is open", () => {
  it("is refused (409, naming the case) until the case is cancelled", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const u = await scim<Res>(t, token, "/Users", { body: { schemas: [USER], userName: "leaver@example.com" } });
    const person = (await api<{ items: Person[] }>(t, "/people?q=leaver")).body.items[0]!;
    // A laptop in the leaver's bag keeps the case open (a case with nothing out closes by itself).
    const laptop = await api<{ id: string }>(t, "/inventory-items", { body: { name: "Leaver laptop" } });
    expect(
      (await api(t, `/inventory-items/${laptop.body.id}/checkout`, { body: { personId: person.id } })).status,
    ).toBe(200);
    const off = await scim<Res>(t, token, `/Users/${u.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] },
    });
    expect(off.status).toBe(200);
    const cases = await api<{ items: Case[] }>(t, "/offboarding-cases");
    const open = cases.body.items.find((c) => c.state === "open");
    expect(open?.personId).toBe(person.id);
    const personId = person.id;

    const refused = await api<Failure<{ offboardingCaseId: string }>>(t, `/people/${personId}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("conflict");
    expect(refused.body.message).toContain(open!.id);
    expect(refused.body.details.offboardingCaseId).toBe(open!.id);
    expect((await api<Person>(t, `/people/${personId}`)).status).toBe(200);
    expect(await outboxRows(t, { type: "person.deleted" })).toHaveLength(0);

    const cancel = await api(t, `/offboarding-cases/${open!.id}/cancel`, { method: "POST" });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    // Cancelled: the person's own rules again (a 409 while they hold the laptop), then the delete.
    const holding = await api<Failure<{ assetIds: string[] }>>(t, `/people/${personId}`, { method: "DELETE" });
    expect(holding.status).toBe(409);
    expect(holding.body.details.assetIds).toEqual([laptop.body.id]);
    expect((await api(t, `/inventory-items/${laptop.body.id}/checkin`, { body: {} })).status).toBe(200);
    expect((await api(t, `/people/${personId}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/people/${personId}`)).status).toBe(404);
  });
});

describe("SCIM deprovisioning of a person an admin deactivated already", () => {
  it("answers 200 (no case: nothing to give back) and ends the access", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const u = await scim<Res>(t, token, "/Users", { body: { schemas: [USER], userName: "gone@example.com" } });
    const person = (await api<{ items: Person[] }>(t, "/people?q=gone")).body.items[0]!;
    const off = await api(t, `/people/${person.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const res = await scim<Res>(t, token, `/Users/${u.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.active).toBe(false);
    const cases = await api<{ items: Case[] }>(t, `/offboarding-cases?personId=${person.id}`);
    expect(cases.body.items).toEqual([]);
  });
});
