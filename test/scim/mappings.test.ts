import { describe, expect, it } from "vitest";
import type { ScimGroupMapping } from "../../src/modules/scim";
import { loginOwner } from "../harness/auth";
import { outboxRows } from "../harness/outbox";
import { scim, scimToken } from "../harness/scim";
import { api, createTenant, type Failure } from "../harness/tenant";

type Res = Record<string, unknown> & { id: string };
type User = { id: string; email: string; role: string; status: string };

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";

describe("SCIM group mapping rules", () => {
  it("apply to the group's current members at once: created, changed and removed, each with user.role_changed", async () => {
    const t = await createTenant();
    const token = await scimToken(t);
    const jwt = await loginOwner(t);
    const provision = async (userName: string) => {
      const res = await scim<Res>(t, token, "/Users", { body: { schemas: [USER], userName } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    const dade = await provision("dade@example.com");
    const kate = await provision("kate@example.com");
    for (const [displayName, members] of [
      ["Staff", [dade]],
      ["Leads", [dade]],
      ["Ops", [kate]],
    ] as const)
      expect(
        (
          await scim(t, token, "/Groups", {
            body: { schemas: [GROUP], displayName, members: members.map((value) => ({ value })) },
          })
        ).status,
      ).toBe(201);
    const userOf = async (email: string) =>
      (await api<{ items: User[] }>(t, "/users?limit=100", { auth: { jwt } })).body.items.find(
        (u) => u.email === email,
      );
    // The groups exist before any rule: nobody is a workspace user yet.
    expect(await userOf("dade@example.com")).toBeUndefined();

    const mapping = async (body: Record<string, unknown>) => {
      const res = await api<ScimGroupMapping>(t, "/scim-group-mappings", { auth: { jwt }, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const change = (id: string, body: Record<string, unknown>) =>
      api<ScimGroupMapping>(t, `/scim-group-mappings/${id}`, { method: "PATCH", auth: { jwt }, body });
    const roleEvents = async (userId: string) =>
      (await outboxRows(t, { type: "user.role_changed", subjectId: userId })).map((e) => {
        const p = e.payload as { role: string; previousRole: string | null; status: string };
        return [p.previousRole, p.role, p.status];
      });

    // A new rule for an existing group: its member becomes a workspace user at once.
    const staff = await mapping({ groupName: "staff", role: "member" });
    const u = await userOf("dade@example.com");
    expect(u).toMatchObject({ role: "member", status: "active" });
    expect(await roleEvents(u!.id)).toEqual([[null, "member", "active"]]);
    const leads = await mapping({ groupName: "Leads", role: "admin" });
    expect(await userOf("dade@example.com")).toMatchObject({ role: "admin", status: "active" });

    // A changed rule: Leads now gives requester, so the highest left is Staff's member.
    const changed = await change(leads.id, { role: "requester" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ id: leads.id, groupName: "Leads", role: "requester" });
    expect(await userOf("dade@example.com")).toMatchObject({ role: "member", status: "active" });
    expect((await outboxRows(t, { type: "scim_group_mapping.updated", subjectId: leads.id })).length).toBe(1);

    // A removed rule lowers: Staff's member goes, Leads' requester is what is left.
    expect((await api(t, `/scim-group-mappings/${staff.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect(await userOf("dade@example.com")).toMatchObject({ role: "requester", status: "active" });
    // The last rule removed: no role left, access ends.
    expect((await api(t, `/scim-group-mappings/${leads.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect(await userOf("dade@example.com")).toMatchObject({ status: "deactivated" });
    expect(await roleEvents(u!.id)).toEqual([
      [null, "member", "active"],
      ["member", "admin", "active"],
      ["admin", "member", "active"],
      ["member", "requester", "active"],
      ["requester", "requester", "deactivated"],
    ]);
    // Kate's group had no rule touched: no workspace user, no event.
    expect(await userOf("kate@example.com")).toBeUndefined();

    // A rule again gives the role back.
    const again = await mapping({ groupName: "Leads", role: "admin" });
    expect(await userOf("dade@example.com")).toMatchObject({ role: "admin", status: "active" });

    // Bad changes are clear 4xx.
    expect((await change(leads.id, { role: "member" })).status).toBe(404);
    const owner = await change(again.id, { role: "owner" });
    expect(owner.status).toBe(400);
    const unknownField = await api<Failure>(t, `/scim-group-mappings/${again.id}`, {
      method: "PATCH",
      auth: { jwt },
      body: { groupName: "Other" },
    });
    expect(unknownField.status).toBe(400);
    expect((await change("sgm_00000000000000000000000000", { role: "member" })).status).toBe(404);
  });
});
