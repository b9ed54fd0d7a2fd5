import { describe, expect, it } from "vitest";
import { loginOwner } from "../harness/auth";
import { scim, scimToken } from "../harness/scim";
import { api, call, createTenant } from "../harness/tenant";

type Res = Record<string, unknown> & { id: string; meta: { version: string } };
type List = { totalResults: number; Resources: Res[]; startIndex: number; itemsPerPage: number };
type ScimErr = { schemas: string[]; status: string; scimType?: string; detail: string };

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENT = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM: Microsoft Entra's request sequence", () => {
  it("probes, creates, patches with its habits, manages a group and deprovisions without checking anything in", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);
    await api(t, "/scim-group-mappings", { auth: { jwt }, body: { groupName: "Asset Admins", role: "admin" } });

    // The userName eq probe before create (Entra's "Tutorial: develop a SCIM endpoint").
    const probe = await scim<List>(
      t,
      token,
      `/Users?filter=${encodeURIComponent('userName eq "Test_User_ab6490ee@contoso.com"')}`,
    );
    expect(probe.status).toBe(200);
    expect(probe.headers.get("content-type")).toContain("application/scim+json");
    expect(probe.body.totalResults).toBe(0);

    const manager = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: [USER],
        userName: "boss@contoso.com",
        active: true,
        displayName: "Boss",
        emails: [{ primary: true, type: "work", value: "boss@contoso.com" }],
      },
    });
    expect(manager.status).toBe(201);
    const created = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: [USER, ENT],
        externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
        userName: "Test_User_ab6490ee@contoso.com",
        active: true,
        emails: [{ primary: true, type: "work", value: "Test_User_fd0ea19b@contoso.com" }],
        meta: { resourceType: "User" },
        name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
        roles: [],
        [ENT]: { employeeNumber: "E-1", department: "Sales", costCenter: "CC-9" },
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBe(created.body.meta.version);
    const id = created.body.id;
    const again = await scim<ScimErr>(t, token, "/Users", {
      body: { schemas: [USER], userName: "test_user_AB6490EE@contoso.com" },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      status: "409",
      scimType: "uniqueness",
      schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
    });

    // The person exists with the enterprise attributes.
    const people = await api<{
      items: {
        id: string;
        email: string;
        externalId: string;
        department: string;
        costCenter: string;
        managerId: string | null;
      }[];
    }>(t, "/people?q=givenName");
    const person = people.body.items.find((p) => p.externalId === "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef");
    expect(person).toMatchObject({ email: "Test_User_fd0ea19b@contoso.com", department: "Sales", costCenter: "CC-9" });

    // PATCH with Entra's capitalised ops, the manager as a bare id and a filtered path.
    const patched = await scim<Res>(t, token, `/Users/${id}`, {
      method: "PATCH",
      body: {
        schemas: [PATCH],
        Operations: [
          { op: "Replace", path: 'emails[type eq "work"].value', value: "updated@contoso.com" },
          { op: "Add", path: `${ENT}:manager`, value: manager.body.id },
          { op: "replace", value: { displayName: "Ada Entra" } },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.displayName).toBe("Ada Entra");
    expect((patched.body[ENT] as { manager: { value: string } }).manager).toEqual({ value: manager.body.id });
    const p2 = await api<{ email: string; managerId: string; name: string }>(t, `/people/${person!.id}`);
    expect(p2.body).toMatchObject({ email: "updated@contoso.com", name: "Ada Entra" });
    expect(p2.body.managerId).not.toBeNull();

    // A group with a mapping: members added as a value array make a workspace admin.
    const group = await scim<Res>(t, token, "/Groups", {
      body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Asset Admins", members: [] },
    });
    expect(group.status).toBe(201);
    const add = await scim(t, token, `/Groups/${group.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Add", path: "members", value: [{ value: id }] }] },
    });
    expect(add.status).toBe(204);
    const users1 = await api<{ items: { email: string; role: string; status: string }[] }>(t, "/users", {
      auth: { jwt },
    });
    expect(users1.body.items.find((u) => u.email === "updated@contoso.com")).toMatchObject({
      role: "admin",
      status: "active",
    });
    // Empty-group PATCH (Entra sends it): no change, still 204.
    const empty = await scim(t, token, `/Groups/${group.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [] },
    });
    expect(empty.status).toBe(204);
    const withoutMembers = await scim<Res>(t, token, `/Groups/${group.body.id}?excludedAttributes=members`);
    expect(withoutMembers.body.members).toBeUndefined();
    expect(withoutMembers.body.displayName).toBe("Asset Admins");

    // Disable with "active": "False" as a string: access ends, the person stays active (offboarding, not check-in).
    const off = await scim<Res>(t, token, `/Users/${id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] },
    });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const users2 = await api<{ items: { email: string; status: string }[] }>(t, "/users", { auth: { jwt } });
    expect(users2.body.items.find((u) => u.email === "updated@contoso.com")?.status).toBe("deactivated");
    const p3 = await api<{ status: string }>(t, `/people/${person!.id}`);
    expect(p3.body.status).toBe("active");

    // Members removed as a value array; then DELETE: 404 afterwards.
    const rm = await scim(t, token, `/Groups/${group.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "Remove", path: "members", value: [{ value: id }] }] },
    });
    expect(rm.status).toBe(204);
    expect((await scim(t, token, `/Users/${id}`, { method: "DELETE" })).status).toBe(204);
    const gone = await scim<ScimErr>(t, token, `/Users/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.status).toBe("404");
  });
});

describe("SCIM: Okta's request sequence", () => {
  it("pages with startIndex=1&count=100, updates by PUT, removes members by a filtered path, deactivates without DELETE", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);
    await api(t, "/scim-group-mappings", { auth: { jwt }, body: { groupName: "Staff", role: "member" } });
    await api(t, "/scim-group-mappings", { auth: { jwt }, body: { groupName: "Leads", role: "admin" } });
    const list = await scim<List>(
      t,
      token,
      `/Users?filter=${encodeURIComponent('userName eq "dade.murphy@example.com"')}&startIndex=1&count=100`,
    );
    expect(list.body).toMatchObject({ totalResults: 0, startIndex: 1 });
    const user = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: [USER],
        userName: "dade.murphy@example.com",
        name: { givenName: "Dade", familyName: "Murphy" },
        emails: [{ primary: true, value: "dade.murphy@example.com", type: "work" }],
        displayName: "Dade Murphy",
        locale: "en-US",
        externalId: "00ujl29u0le5T6Aj10h7",
        groups: [],
        password: "1mz050nq",
        active: true,
      },
    });
    expect(user.status).toBe(201);
    const id = user.body.id;
    const staff = await scim<Res>(t, token, "/Groups", {
      body: {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: "Staff",
        members: [{ value: id, display: "dade.murphy@example.com" }],
      },
    });
    const leads = await scim<Res>(t, token, "/Groups", {
      body: {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: "Leads",
        members: [{ value: id }],
      },
    });
    expect(leads.status).toBe(201);
    const roleOf = async () =>
      (
        await api<{ items: { email: string; role: string; status: string }[] }>(t, "/users", { auth: { jwt } })
      ).body.items.find((u) => u.email === "dade.murphy@example.com");
    expect(await roleOf()).toMatchObject({ role: "admin", status: "active" });
    // Okta removes a member with a members[value eq "…"] path: the role drops to the highest remaining.
    const rm = await scim(t, token, `/Groups/${leads.body.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${id}"]` }] },
    });
    expect(rm.status).toBe(204);
    expect(await roleOf()).toMatchObject({ role: "member", status: "active" });
    // Path-less replace of the group's name with the id repeated (Okta).
    const rename = await scim(t, token, `/Groups/${staff.body.id}`, {
      method: "PATCH",
      body: {
        schemas: [PATCH],
        Operations: [{ op: "replace", value: { id: staff.body.id, displayName: "Staff (all)" } }],
      },
    });
    expect(rename.status).toBe(204);
    // PUT for updates; then active:false (Okta never DELETEs).
    const put = await scim<Res>(t, token, `/Users/${id}`, {
      method: "PUT",
      body: { ...user.body, name: { givenName: "Dade", familyName: "Murphy-Z" }, displayName: "Zero Cool" },
    });
    expect(put.status).toBe(200);
    expect(put.body.displayName).toBe("Zero Cool");
    const off = await scim<Res>(t, token, `/Users/${id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "replace", value: { active: false } }] },
    });
    expect(off.body.active).toBe(false);
    expect(await roleOf()).toMatchObject({ status: "deactivated" });
    const read = await scim<Res>(t, token, `/Users/${id}`);
    expect(read.body.active).toBe(false);
  });
});

describe("SCIM: filters, PATCH paths and attributes (RFC 7644's examples)", () => {
  it("answers eq, ne, co, sw, pr, and/or and projects attributes", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    for (const [u, e, ext] of [
      ["bjensen", "bjensen@example.com", "701984"],
      ["jsmith", "jsmith@example.org", "702000"],
      ["alice", "alice@example.com", null],
    ] as const)
      expect(
        (
          await scim(t, token, "/Users", {
            body: {
              schemas: [USER],
              userName: u,
              displayName: u.toUpperCase(),
              emails: [{ type: "work", value: e }],
              ...(ext ? { externalId: ext } : {}),
            },
          })
        ).status,
      ).toBe(201);
    const count = async (filter: string) =>
      (await scim<List>(t, token, `/Users?filter=${encodeURIComponent(filter)}`)).body.totalResults;
    expect(await count('userName eq "bjensen"')).toBe(1);
    expect(await count('userName eq "BJENSEN"')).toBe(1);
    expect(await count('userName ne "bjensen"')).toBe(2);
    expect(await count('emails.value co "example.com"')).toBe(2);
    expect(await count('userName sw "j"')).toBe(1);
    expect(await count("externalId pr")).toBe(2);
    expect(await count('userName eq "bjensen" or userName eq "alice"')).toBe(2);
    expect(await count('emails[type eq "work" and value co "@example.org"]')).toBe(1);
    expect(await count('displayName sw "A" and emails.value ew ".com"')).toBe(1);
    expect(await count('meta.lastModified gt "2000-01-01T00:00:00Z"')).toBe(3);
    const page = await scim<List>(t, token, "/Users?startIndex=2&count=1&attributes=userName");
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(Object.keys(page.body.Resources[0]!).sort()).toEqual(["id", "schemas", "userName"]);
    const bad = await scim<ScimErr>(t, token, `/Users?filter=${encodeURIComponent("userName eq")}`);
    expect(bad.status).toBe(400);
    expect(bad.body.scimType).toBe("invalidFilter");
    const badOp = await scim<ScimErr>(t, token, `/Users/${page.body.Resources[0]!.id}`, {
      method: "PATCH",
      body: { schemas: [PATCH], Operations: [{ op: "move", path: "userName" }] },
    });
    expect(badOp.status).toBe(400);
    expect(badOp.body.scimType).toBe("invalidSyntax");
  });
});

describe("SCIM: ETags", () => {
  it("two PATCHes with one ETag: exactly one 412", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const u = await scim<Res>(t, token, "/Users", { body: { schemas: [USER], userName: "race@example.com" } });
    const etag = u.body.meta.version;
    const patch = (name: string) =>
      scim(t, token, `/Users/${u.body.id}`, {
        method: "PATCH",
        headers: { "if-match": etag },
        body: { schemas: [PATCH], Operations: [{ op: "replace", path: "displayName", value: name }] },
      });
    const results = await Promise.all([patch("one"), patch("two")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const stale = await patch("three");
    expect(stale.status).toBe(412);
    expect((stale.body as ScimErr).status).toBe("412");
  });
});

describe("SCIM: token isolation", () => {
  it("accepts only SCIM tokens on /scim/v2, and SCIM tokens nowhere else", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);
    expect((await scim(t, token, "/ServiceProviderConfig")).status).toBe(200);
    expect((await scim(t, "x", "/Users", { auth: { apiKey: t.apiKey } })).status).toBe(401);
    expect((await scim(t, "x", "/Users", { auth: { jwt } })).status).toBe(401);
    const none = await scim<ScimErr>(t, "x", "/Users", { auth: null });
    expect(none.status).toBe(401);
    expect(none.body.schemas).toEqual(["urn:ietf:params:scim:api:messages:2.0:Error"]);
    expect((await api(t, "/people", { auth: { header: `Bearer ${token}` } })).status).toBe(401);
    expect((await api(t, "/people", { auth: { header: `ApiKey ${token}` } })).status).toBe(401);
    // Another workspace's token is refused.
    expect((await scim(other, token, "/Users")).status).toBe(401);
    // Revoked: refused at once.
    const list = await api<{ items: { id: string }[] }>(t, "/scim-tokens", { auth: { jwt } });
    expect(list.body.items[0]).not.toHaveProperty("token");
    expect((await api(t, `/scim-tokens/${list.body.items[0]!.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(
      204,
    );
    expect((await scim(t, token, "/Users")).status).toBe(401);
    // Again: nothing to do, the same answer; an id never minted is a 404 that names the token.
    expect((await api(t, `/scim-tokens/${list.body.items[0]!.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(
      204,
    );
    const unknown = await api<{ message: string }>(t, "/scim-tokens/sct_00000000000000000000000000", {
      method: "DELETE",
      auth: { jwt },
    });
    expect([unknown.status, unknown.body.message]).toEqual([404, expect.stringContaining("SCIM token")]);
    // The admin routes are JWT + managers only.
    expect((await api(t, "/scim-tokens")).status).toBe(403);
    void call;
  });
});
