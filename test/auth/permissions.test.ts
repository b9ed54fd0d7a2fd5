import { describe, expect, it } from "vitest";
import { ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { planIncludes } from "../../src/tenancy/plans";
import { userJwt } from "../harness/principals";
import { requester } from "../harness/requests-helpers";
import { api, createTenant } from "../harness/tenant";

type Permissions = { role: string; operations: string[]; personId: string | null };

async function memberJwt(t: Awaited<ReturnType<typeof createTenant>>, role = "member") {
  const owner = await userJwt(t);
  const email = `member-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invite = await api<{ token: string }>(t, "/users/invites", {
    body: { email, role },
    auth: { jwt: owner },
  });
  const joined = await api<{ accessToken: string }>(t, "/auth/invites/accept", {
    body: { token: invite.body.token, password: "member-password-123" },
    auth: null,
  });
  return joined.body.accessToken;
}

describe("GET /auth/permissions", () => {
  it("an owner may call every credentialed operation of the plan; webhooks only where the plan has them", async () => {
    const pro = await createTenant({ plan: "pro" });
    const res = await api<Permissions>(pro, "/auth/permissions", { auth: { jwt: await userJwt(pro) } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe("owner");
    expect(res.body.operations).toEqual([...res.body.operations].sort());
    expect(res.body.operations).toEqual(
      expect.arrayContaining([
        "permanentlyDeleteTrashItems",
        "listUsers",
        "checkoutInventoryItem",
        "listWebhookEndpoints",
      ]),
    );
    // No public or sign-in route is listed; SSO configuration is the owner's on every plan.
    expect(res.body.operations).not.toContain("login");
    expect(res.body.operations).not.toContain("getAuthBootstrap");
    const free = await createTenant({ plan: "free" });
    const freeOps = (await api<Permissions>(free, "/auth/permissions", { auth: { jwt: await userJwt(free) } })).body;
    expect(freeOps.operations).not.toContain("listWebhookEndpoints");
  });

  it("a member gets the asset actions but not the managers' operations, and the API refuses what is not listed", async () => {
    const t = await createTenant();
    const jwt = await memberJwt(t);
    const res = await api<Permissions>(t, "/auth/permissions", { auth: { jwt } });
    expect(res.body.role).toBe("member");
    expect(res.body.operations).toEqual(
      expect.arrayContaining([
        "getInventoryItemByTag",
        "checkoutInventoryItem",
        "checkinInventoryItem",
        "submitFeedback",
      ]),
    );
    for (const op of ["permanentlyDeleteTrashItems", "listUsers", "createInvite", "updateSettings", "getSsoConfig"])
      expect(res.body.operations).not.toContain(op);
    // Every listed operation is one the table lets a member call, and every one it does is listed.
    const expected = (Object.entries(ROUTE_POLICY) as [string, RouteRule][])
      .filter(([, r]) => (r.access === "data" || r.access === "jwt") && (!r.roles || r.roles.includes("member")))
      .filter(([, r]) => !r.feature || planIncludes(t.plan, r.feature))
      .map(([id]) => id)
      .sort();
    expect(res.body.operations).toEqual(expected);
    const refused = await api(t, "/trash/permanent-delete", {
      body: { items: [{ type: "asset", id: "ast_x" }] },
      auth: { jwt },
    });
    expect(refused.status).toBe(403);
  });

  it("the self-service role gets exactly the routes open to it, and the API refuses the rest", async () => {
    const t = await createTenant();
    const jwt = await memberJwt(t, "requester");
    const res = await api<Permissions>(t, "/auth/permissions", { auth: { jwt } });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe("requester");
    const expected = (Object.entries(ROUTE_POLICY) as [string, RouteRule][])
      .filter(([, r]) => (r.access === "data" || r.access === "jwt") && r.selfService && !r.roles)
      .filter(([, r]) => !r.feature || planIncludes(t.plan, r.feature))
      .map(([id]) => id)
      .sort();
    expect(res.body.operations).toEqual(expected);
    expect(res.body.operations).toContain("createRequest");
    expect(res.body.operations).not.toContain("checkoutInventoryItem");
    expect(
      (await api(t, "/inventory-items/ast_x/checkout", { body: { personId: "per_x" }, auth: { jwt } })).status,
    ).toBe(403);
  });

  it("names the user's person (same email), so a client can show what they hold", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const res = await api<Permissions>(t, "/auth/permissions", { auth: { jwt: rae.jwt } });
    expect(res.body.personId).toBe(rae.personId);
    const owner = await api<Permissions>(t, "/auth/permissions", { auth: { jwt: await userJwt(t) } });
    expect(owner.body.personId).toBeNull();
  });

  it("is for signed-in users: no credentials 401, an API key 403", async () => {
    const t = await createTenant();
    expect((await api(t, "/auth/permissions", { auth: null })).status).toBe(401);
    expect((await api(t, "/auth/permissions")).status).toBe(403);
  });
});
