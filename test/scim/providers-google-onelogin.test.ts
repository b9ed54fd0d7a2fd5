import { describe, expect, it } from "vitest";
import { loginOwner } from "../harness/auth";
import { scim, scimToken } from "../harness/scim";
import { api, createTenant } from "../harness/tenant";

type Res = Record<string, unknown> & { id: string; meta: { version: string } };
type List = { totalResults: number; Resources: Res[]; startIndex: number; itemsPerPage: number };
type ScimErr = { schemas: string[]; status: string; scimType?: string; detail: string };
type Person = {
  id: string;
  name: string;
  email: string | null;
  externalId: string | null;
  department: string | null;
  title: string | null;
  managerId: string | null;
  status: string;
};
type Case = { id: string; personId: string; state: string; source?: string };

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENT = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

const personOf = async (t: Parameters<typeof api>[0], email: string) => {
  const res = await api<{ items: Person[] }>(t, `/people?q=${encodeURIComponent(email)}`);
  return res.body.items.find((p) => p.email?.toLowerCase() === email.toLowerCase());
};

/**
 * Google Workspace's automated user provisioning (Admin console → Apps → Web and mobile apps → the
 * SAML app → Auto-provisioning). Sequence from the authn.sh guide "SCIM 2.0 with Google Workspace"
 * (https://authn-sh-docs.pages.dev/guides/scim/google-workspace/): on Continue Google probes
 * `GET /Users?count=1` to check the URL and token; users in the chosen scope are then created
 * (userName eq probe, POST), and the deprovisioning triggers (suspended, removed from scope, left
 * the company) set to "Delete the user" end in DELETE. Google's own pages show no request bodies;
 * the User below is the core schema with the attributes Google's attribute mapping offers (primary
 * email as userName, given and family name, the work email, department, title).
 */
describe("SCIM: Google Workspace's request sequence", () => {
  it("answers the count=1 probe, creates, updates and deletes into an offboarding case", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const probe = await scim<List>(t, token, "/Users?count=1");
    expect(probe.status).toBe(200);
    expect(probe.headers.get("content-type")).toContain("application/scim+json");
    expect(probe.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const email = "grace.hopper@example.com";
    const exists = await scim<List>(t, token, `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect(exists.body.totalResults).toBe(0);
    const created = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: [USER, ENT],
        userName: email,
        name: { givenName: "Grace", familyName: "Hopper" },
        emails: [{ value: email, type: "work", primary: true }],
        title: "Rear Admiral",
        active: true,
        [ENT]: { department: "Navy" },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    // The probe again, now with one User: one resource, the page says so.
    const again = await scim<List>(t, token, "/Users?count=1");
    expect(again.body).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    expect(again.body.Resources[0]!.id).toBe(id);
    const person = await personOf(t, email);
    expect(person).toMatchObject({ name: "Grace Hopper", department: "Navy", title: "Rear Admiral", status: "active" });

    const renamed = await scim<Res>(t, token, `/Users/${id}`, {
      method: "PATCH",
      body: {
        schemas: [PATCH],
        Operations: [{ op: "replace", path: "name.familyName", value: "Murray Hopper" }],
      },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await personOf(t, email))?.name).toBe("Grace Murray Hopper");

    // The deprovisioning triggers set to delete: DELETE, then the User is gone for Google (404),
    // the person stays and an offboarding case gets the equipment back.
    expect((await scim(t, token, `/Users/${id}`, { method: "DELETE" })).status).toBe(204);
    const gone = await scim<ScimErr>(t, token, `/Users/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.status).toBe("404");
    expect((await personOf(t, email))?.status).toBe("active");
    // (Grace holds nothing, so the case may already have closed by itself: open or closed, it is there.)
    const cases = await api<{ items: Case[] }>(t, `/offboarding-cases?personId=${person!.id}`);
    expect(cases.body.items.map((c) => c.source)).toEqual(["scim"]);
    // Scope changed back: Google creates the User again; the person is linked, not duplicated.
    const back = await scim<Res>(t, token, "/Users", {
      body: { schemas: [USER], userName: email, name: { givenName: "Grace", familyName: "Hopper" }, active: true },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    const people = await api<{ items: Person[] }>(t, `/people?q=${encodeURIComponent(email)}`);
    expect(people.body.items.filter((p) => p.email === email)).toHaveLength(1);
  });
});

/**
 * OneLogin's SCIM Provisioner apps send the User their "SCIM JSON Template" makes. Templates from
 * OneLogin's developer docs, "Step 1. Define Your SCIM User Schema"
 * (https://developers.onelogin.com/scim/define-user-schema): the Core template names the SCIM 1.1
 * schema `urn:scim:schemas:core:1.0` (scim.dev's OneLogin guide, https://scim.dev/guide/applications/onelogin,
 * sends it to a /scim/v2 base URL), has no emails (the userName is the email) and `name.formatted`;
 * the Enterprise template sends `emails` as ONE object, not an array, and the 1.0 enterprise
 * extension with `manager.managerId`. The "SCIM v2 Enterprise" app's template (as Living Security's
 * setup page gives it, https://www.livingsecurity.com/migration/support/configuring-scim-for-onelogin)
 * sends addresses, title, userType, timezone and the 2.0 enterprise extension with organization,
 * division, department and `manager: {value, displayName}`, where a parameter with no value is an
 * empty string. The docs found show the bodies, not the update verbs: updates are replayed as a PUT
 * of the same template (a full representation) and the suspension as `active: false`.
 */
describe("SCIM: OneLogin's request sequence", () => {
  it("takes the Core and Enterprise templates as OneLogin fills them, updates by PUT and suspends", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);

    // The Core template (SCIM 1.1 schema name, no emails).
    const boss = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: ["urn:scim:schemas:core:1.0"],
        userName: "ada.boss@example.com",
        name: { givenName: "Ada", familyName: "Boss", formatted: "Ada Boss" },
      },
    });
    expect(boss.status, JSON.stringify(boss.body)).toBe(201);
    expect(boss.body.schemas).toEqual([USER]);
    expect(await personOf(t, "ada.boss@example.com")).toMatchObject({ name: "Ada Boss" });

    // The Enterprise template: emails as one object, the 1.0 extension, the manager by id.
    const probe = await scim<List>(
      t,
      token,
      `/Users?filter=${encodeURIComponent('userName eq "lin.report@example.com"')}`,
    );
    expect(probe.body.totalResults).toBe(0);
    const report = await scim<Res>(t, token, "/Users", {
      body: {
        schemas: ["urn:scim:schemas:core:1.0", "urn:scim:schemas:extension:enterprise:1.0"],
        userName: "lin.report@example.com",
        name: { familyName: "Report", givenName: "Lin", formatted: "Lin Report" },
        emails: { value: "Lin.Report@example.com", type: "work", primary: true },
        title: "Engineer",
        "urn:scim:schemas:extension:enterprise:1.0": {
          department: "Platform",
          manager: { managerId: boss.body.id, displayName: "Ada Boss" },
        },
      },
    });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.emails).toEqual([{ value: "Lin.Report@example.com", type: "work", primary: true }]);
    expect(report.body[ENT]).toMatchObject({ department: "Platform", manager: { value: boss.body.id } });
    const bossPerson = await personOf(t, "ada.boss@example.com");
    expect(await personOf(t, "lin.report@example.com")).toMatchObject({
      department: "Platform",
      title: "Engineer",
      managerId: bossPerson!.id,
    });

    // The SCIM v2 Enterprise template, with the parameters OneLogin leaves empty as "".
    const template = (title: string) => ({
      schemas: [USER, ENT],
      userName: "kim.v2@example.com",
      name: { familyName: "Vee", givenName: "Kim" },
      title,
      userType: "",
      timezone: "",
      emails: [{ value: "kim.v2@example.com", type: "work", primary: true }],
      addresses: [{ locality: "", region: "", country: "" }],
      [ENT]: {
        organization: "",
        division: "",
        department: "Support",
        manager: { value: "", displayName: " " },
      },
    });
    const kim = await scim<Res>(t, token, "/Users", { body: template("") });
    expect(kim.status, JSON.stringify(kim.body)).toBe(201);
    expect((kim.body[ENT] as Record<string, unknown>).manager).toBeUndefined();
    expect(await personOf(t, "kim.v2@example.com")).toMatchObject({ department: "Support", managerId: null });

    // An update: the whole template again, by PUT.
    const put = await scim<Res>(t, token, `/Users/${kim.body.id}`, { method: "PUT", body: template("Lead") });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await personOf(t, "kim.v2@example.com")).toMatchObject({ title: "Lead" });

    // Suspended in OneLogin: active false; the person's case opens, nothing is checked in.
    const off = await scim<Res>(t, token, `/Users/${kim.body.id}`, {
      method: "PUT",
      body: { ...template("Lead"), active: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.active).toBe(false);
    const kimPerson = await personOf(t, "kim.v2@example.com");
    const cases = await api<{ items: Case[] }>(t, `/offboarding-cases?personId=${kimPerson!.id}`, { auth: { jwt } });
    expect(cases.body.items.map((c) => c.source)).toEqual(["scim"]);

    // A manager id that names no User is a 400 in SCIM's shape, not a silent drop.
    const badManager = await scim<ScimErr>(t, token, "/Users", {
      body: {
        schemas: ["urn:scim:schemas:core:1.0", "urn:scim:schemas:extension:enterprise:1.0"],
        userName: "nobody.manages@example.com",
        "urn:scim:schemas:extension:enterprise:1.0": { manager: { managerId: "no-such-user" } },
      },
    });
    expect(badManager.status).toBe(400);
    expect(badManager.body.scimType).toBe("invalidValue");
  });
});
