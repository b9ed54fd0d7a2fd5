import { sql } from "drizzle-orm";
import { notifications } from "../../db/tenant/notifications";
import type { Committed, Write } from "../../events/write";
import { insertWhere } from "../../platform/d1-write";
import { notifiedAfterCommit, notifyOnCommit, notifyWrite } from "../notifications";
import type { SessionCtx, SessionRow } from "./context";

const notice = (session: SessionRow, userId: string) => ({
  kind: "session.assigned" as const,
  to: { userId },
  title: `Inventory session assigned: ${session.name}`,
  message: `You are an assignee of the inventory session "${session.name}"${session.dueAt ? `, due ${session.dueAt.slice(0, 10)}` : ""}.`,
  data: { sessionId: session.id, status: session.status, dueAt: session.dueAt },
});

/** Of `ids`, the users to tell: all but one who assigned themselves (their own act needs no mail). */
const toTell = (ctx: SessionCtx, ids: readonly string[]) => ids.filter((id) => id !== ctx.actor);

/**
 * The `session.assigned` notifications of a new session, in its own batch; after the commit the
 * mail (immediate for every role by default) leaves through the notification queue at once.
 */
export function assignedOnCreate(ctx: SessionCtx, session: SessionRow): Write {
  return notifyOnCommit(
    ctx.env,
    ctx.tenantId,
    ctx.db,
    toTell(ctx, session.assigneeIds).map((id) => notice(session, id)),
    session.updatedAt,
  ).write;
}

/**
 * The notifications of an edit that may add assignees. Each is inserted, before the edit's own
 * update in the batch, only if the session is still in the status the edit expects (so the update
 * will be written too) and the user is not yet among its assignees: of concurrent edits adding the
 * same user, only the first written tells them. `afterCommit` pushes and mails the ones written.
 */
export function assignedOnEdit(ctx: SessionCtx, before: SessionRow, after: SessionRow) {
  const fresh = toTell(
    ctx,
    after.assigneeIds.filter((id) => !before.assigneeIds.includes(id)),
  );
  const { rows } = notifyWrite(
    ctx.db,
    fresh.map((id) => notice(after, id)),
    after.updatedAt,
  );
  const writes = rows.map((row) =>
    insertWhere(
      ctx.db,
      notifications,
      row,
      sql`EXISTS (SELECT 1 FROM sessions AS s WHERE s.id = ${after.id} AND s.status = ${before.status}
        AND NOT EXISTS (SELECT 1 FROM json_each(s.assignee_ids) WHERE value = ${row.userId}))`,
    ),
  );
  return {
    write: { writes } satisfies Write,
    /** `done` is the committed batch; the notices are its first writes (the edit's update is `derived`). */
    afterCommit: (done: Committed) =>
      notifiedAfterCommit(
        ctx.env,
        ctx.tenantId,
        rows.filter((_, i) => (done.results[done.writesAt + i] as { meta: { changes: number } }).meta.changes > 0),
      ),
  };
}
