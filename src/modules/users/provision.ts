import { type Role, users } from "../../db/tenant/users";
import { commitWrite, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { allOf, batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { assertPlanRoom, isManagerRole, planRoomGuard } from "./limits";
import type { Acting } from "./service";
import { toUser, type UserRow } from "./view";

/**
 * A workspace user made by the identity provider (SCIM): no password, so it signs in through the
 * workspace's SSO only. The plan's seat and admin limits hold as for invites (403 plan_required).
 * `extra` rides on the event (the SCIM request id); `rider` describes the caller's own rows about
 * the new user (the SCIM User's link to it), written in the same batch: both or neither.
 */
export async function provisionUser(
  ctx: ServiceCtx,
  acting: Acting,
  input: { email: string; name: string | null; role: Exclude<Role, "owner"> },
  extra: Record<string, unknown> = {},
  rider?: (row: UserRow) => Write,
): Promise<UserRow> {
  const now = nowIso();
  const growth = { seats: true, admins: isManagerRole(input.role) };
  await assertPlanRoom(ctx.db, acting.plan, growth, now);
  const row: UserRow = {
    id: newId("user"),
    email: input.email,
    name: input.name,
    role: input.role,
    status: "active",
    passwordHash: null,
    lastLoginAt: null,
    tokensValidAfter: null,
    createdAt: now,
    updatedAt: now,
  };
  const room = planRoomGuard(acting.plan, growth, now);
  await commitWrite(
    ctx,
    joinWrites(
      {
        guards: room.length ? [batchGuard(ctx.db, "plan_room", allOf(room))] : [],
        writes: [ctx.db.insert(users).values(row)],
        audits: [
          { entityType: "user", entityId: row.id, action: "create", actor: ctx.actor, at: now, after: toUser(row) },
        ],
        events: [{ type: "user.provisioned", subjectId: row.id, payload: { ...toUser(row), ...extra } }],
      },
      rider?.(row),
    ),
    async (err) => {
      if (isUniqueViolation(err)) throw conflict(`A user with the email '${input.email}' already exists`);
      if (guardFailed(err, "plan_room")) await assertPlanRoom(ctx.db, acting.plan, growth, now);
      throw err;
    },
  );
  return row;
}
