import { eq } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { revokeApiKeysCreatedBy } from "../api-keys";
import { cancelOffboarding, startOffboarding } from "../offboarding";
import { getUser, updateUser } from "../users";
import type { ScimCtx } from "./context";

/**
 * Where deprovisioning and re-provisioning meet the offboarding module (docs/offboarding.md).
 * Deprovisioning never checks equipment in (the laptop is still in the leaver's bag): it starts an
 * offboarding case (which ends the person's sessions, refresh tokens and keys and lists what they
 * hold) and deactivates their user; the case gets the equipment back. Re-provisioning before the
 * case closed cancels it; access comes back through the group mappings (access.ts). The SCIM
 * user's own state (active) is recorded by the caller's write.
 */
export async function deprovision(ctx: ScimCtx, scimUser: { personId: string; userId: string | null }): Promise<void> {
  // A person deactivated or deleted already (by an admin) has nothing left to give back: no case,
  // and the provider's write is not refused for it; the access still ends.
  const person = await ctx.db
    .select({ status: people.status, deletedAt: people.deletedAt })
    .from(people)
    .where(eq(people.id, scimUser.personId))
    .get();
  if (person && person.deletedAt === null && person.status === "active")
    await startOffboarding(ctx, scimUser.personId, { source: "scim", requestId: ctx.requestId });
  if (scimUser.userId) await endAccess(ctx, scimUser.userId);
}

export async function reprovision(ctx: ScimCtx, scimUser: { personId: string; userId: string | null }): Promise<void> {
  await cancelOffboarding(ctx, scimUser.personId, { source: "scim", requestId: ctx.requestId });
}

/** Sessions, refresh tokens and the user's API keys end; owners are never touched by provisioning. */
export async function endAccess(ctx: ScimCtx, userId: string): Promise<void> {
  const user = await getUser(ctx, userId).catch(() => null);
  if (!user || user.role === "owner") return;
  if (user.status === "active")
    await updateUser(ctx, { role: "admin", plan: ctx.plan }, userId, { status: "deactivated" });
  await revokeApiKeysCreatedBy(ctx, userId);
}
