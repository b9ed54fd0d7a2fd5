import { eq, sql } from "drizzle-orm";
import { scimGroups, scimUsers } from "../../db/tenant/scim";
import { type Role, users } from "../../db/tenant/users";
import { commitWrite, type Write } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { getUser, provisionUser, toUser, type UserRow, updateUser } from "../users";
import type { ScimCtx } from "./context";
import { endAccess } from "./lifecycle";
import { mappingsOf } from "./mappings";
import { displayNameOf, emailOf, type Json } from "./resource";

type ScimUserRow = typeof scimUsers.$inferSelect;

const RANK: Record<Role, number> = { requester: 1, member: 2, admin: 3, owner: 4 };

/** The displayNames of the groups a SCIM user is a member of. */
export async function groupNamesOf(ctx: ScimCtx, scimUserId: string): Promise<string[]> {
  const rows = await ctx.db.all<{ name: string }>(
    sql`SELECT g.display_name AS name FROM ${scimGroups} g, json_each(g.resource, '$.members') m WHERE json_extract(m.value, '$.value') = ${scimUserId}`,
  );
  return rows.map((r) => r.name);
}

/** What the user's groups give: the highest mapped role, and the first mapped location and department. */
export async function grantsOf(ctx: ScimCtx, scimUserId: string) {
  const mappings = await mappingsOf(ctx, await groupNamesOf(ctx, scimUserId));
  let role: Role | null = null;
  for (const m of mappings) if (m.role && (!role || RANK[m.role] > RANK[role])) role = m.role;
  return {
    role,
    locationId: mappings.find((m) => m.locationId)?.locationId ?? null,
    department: mappings.find((m) => m.department)?.department ?? null,
  };
}

/**
 * Brings the workspace user in line with the groups: a mapped role makes (or re-activates) a
 * password-less user with the highest mapped role; losing a group lowers the role to the highest
 * remaining one; no mapped role left (or an inactive SCIM user) ends the user's access. An owner is
 * never changed by provisioning.
 */
export async function syncAccess(ctx: ScimCtx, row: ScimUserRow): Promise<void> {
  const { role: mapped } = await grantsOf(ctx, row.id);
  const role = row.active ? mapped : null;
  const resource = row.resource as Json;
  let user = row.userId ? await getUser(ctx, row.userId).catch(() => null) : null;
  const email = emailOf(resource);
  if (!user && email)
    user = (await ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).get()) ?? null;
  if (!role) {
    if (!user || row.userId !== user.id || user.status !== "active" || user.role === "owner") return;
    await endAccess(ctx, user.id);
    // Access ended: the role is kept on the deactivated user (a later group gives it back); the
    // event says the user went from its role to none.
    const ended = await getUser(ctx, user.id);
    await commitWrite(ctx, {
      audits: [
        {
          entityType: "user",
          entityId: user.id,
          action: "role",
          actor: ctx.actor,
          at: ended.updatedAt,
          before: { role: user.role },
          after: { role: null },
        },
      ],
      events: [
        {
          type: "user.role_changed",
          subjectId: user.id,
          payload: { ...toUser(ended), previousRole: user.role, scimUserId: row.id, scimRequestId: ctx.requestId },
        },
      ],
    });
    return;
  }
  if (user?.role === "owner") return;
  const acting = { role: "admin" as const, plan: ctx.plan };
  const previous = user && user.status === "active" ? user.role : null;
  // The link on the SCIM User, the role's audit row and its event: in the batch of the user's own
  // write when one is made, so a failure leaves neither a user without its link nor the reverse.
  const linkAndRecord = (u: UserRow): Write => ({
    writes: row.userId === u.id ? [] : [ctx.db.update(scimUsers).set({ userId: u.id }).where(eq(scimUsers.id, row.id))],
    audits:
      previous === role
        ? []
        : [
            {
              entityType: "user",
              entityId: u.id,
              action: "role",
              actor: ctx.actor,
              at: nowIso(),
              before: { role: previous },
              after: { role },
            },
          ],
    events:
      previous === role
        ? []
        : [
            {
              type: "user.role_changed",
              subjectId: u.id,
              payload: {
                ...toUser({ ...u, role, status: "active" }),
                previousRole: previous,
                scimUserId: row.id,
                scimRequestId: ctx.requestId,
              },
            },
          ],
  });
  if (!user) {
    if (!email) return;
    await provisionUser(
      ctx,
      acting,
      { email, name: displayNameOf(resource), role: role as Exclude<Role, "owner"> },
      { scimUserId: row.id, scimRequestId: ctx.requestId },
      linkAndRecord,
    );
    return;
  }
  if (user.status !== "active" || user.role !== role)
    user = await updateUser(ctx, acting, user.id, { role, status: "active" });
  if (previous === role && row.userId === user.id) return;
  await commitWrite(ctx, linkAndRecord(user));
}
