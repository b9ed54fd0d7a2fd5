import { revokeApiKeysCreatedBy } from "../api-keys";
import { getUser, updateUser } from "../users";
import type { ScimCtx } from "./context";

/**
 * Where deprovisioning and re-provisioning meet the offboarding module. Deprovisioning never checks
 * equipment in (the laptop is still in the leaver's bag): it ends the user's access at once, and the
 * offboarding case gets the equipment back. The SCIM user's own state (active) is recorded by the
 * caller's write. The offboarding calls go here:
 *   startOffboarding(ctx, personId, { source: "scim", requestId: ctx.requestId })
 *   cancelOffboarding(ctx, personId, { source: "scim", requestId: ctx.requestId })
 */
export async function deprovision(ctx: ScimCtx, scimUser: { personId: string; userId: string | null }): Promise<void> {
  if (scimUser.userId) await endAccess(ctx, scimUser.userId);
}

export async function reprovision(
  _ctx: ScimCtx,
  _scimUser: { personId: string; userId: string | null },
): Promise<void> {
  // Access comes back through the group mappings (access.ts); the offboarding case is cancelled here once wired.
}

/** Sessions, refresh tokens and the user's API keys end; owners are never touched by provisioning. */
export async function endAccess(ctx: ScimCtx, userId: string): Promise<void> {
  const user = await getUser(ctx, userId).catch(() => null);
  if (!user || user.role === "owner") return;
  if (user.status === "active")
    await updateUser(ctx, { role: "admin", plan: ctx.plan }, userId, { status: "deactivated" });
  await revokeApiKeysCreatedBy(ctx, userId);
}
