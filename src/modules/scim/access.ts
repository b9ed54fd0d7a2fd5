import { eq, sql } from "drizzle-orm";
import { scimGroups, scimUsers } from "../../db/tenant/scim";
import { type Role, users } from "../../db/tenant/users";
import { commitWrite } from "../../events/write";
import { getUser, provisionUser, toUser, updateUser } from "../users";
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
    if (user && row.userId === user.id && user.status === "active") await endAccess(ctx, user.id);
    return;
  }
  if (user?.role === "owner") return;
  const acting = { role: "admin" as const, plan: ctx.plan };
  const previous = user && user.status === "active" ? user.role : null;
  if (!user) {
    if (!email) return;
    user = await provisionUser(
      ctx,
      acting,
      { email, name: displayNameOf(resource), role: role as Exclude<Role, "owner"> },
      { scimUserId: row.id, scimRequestId: ctx.requestId },
    );
  } else if (user.status !== "active" || user.role !== role) {
    user = await updateUser(ctx, acting, user.id, { role, status: "active" });
  }
  if (previous === role && row.userId === user.id) return;
  await commitWrite(ctx, {
    writes: [ctx.db.update(scimUsers).set({ userId: user.id }).where(eq(scimUsers.id, row.id))],
    audits: [
      {
        entityType: "user",
        entityId: user.id,
        action: "role",
        actor: ctx.actor,
        at: user.updatedAt,
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
              subjectId: user.id,
              payload: { ...toUser(user), previousRole: previous, scimUserId: row.id, scimRequestId: ctx.requestId },
            },
          ],
  });
}
