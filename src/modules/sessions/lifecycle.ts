import { and, eq, sql } from "drizzle-orm";
import { type SessionStatus, sessions } from "../../db/tenant/sessions";
import { sessionCompletedStatements, settleHealthBacklog } from "../../domain/health-engine";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { ApiError, conflict } from "../../platform/errors";
import { settingsOf } from "../../tenancy/registry";
import { callObject, requireSession, type SessionCtx, type SessionRow, sessionObject } from "./context";
import { buildInit } from "./object-init";
import { buildReport } from "./report";
import { expectedCountSql, snapshotStatements } from "./scope";
import { toSession } from "./view";

/**
 * Session statuses (docs/sessions.md#statuses):
 *
 * | from   | to        | effect                                                                         |
 * |--------|-----------|--------------------------------------------------------------------------------|
 * | draft  | active    | the expected set is taken from the scope; the session's object is loaded       |
 * | draft  | cancelled | nothing else                                                                   |
 * | active | completed | the object stops taking scans and writes everything through; the report is    |
 * |        |           | stored and `session.completed` is emitted with it                              |
 * | active | cancelled | as completed, but emits `session.cancelled`                                    |
 *
 * completed and cancelled are final. Asking for the current status again is a no-op.
 */
export const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  draft: ["active", "cancelled"],
  active: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

export async function transition(ctx: SessionCtx, row: SessionRow, to: SessionStatus): Promise<SessionRow> {
  if (row.status === to) return row;
  if (!TRANSITIONS[row.status].includes(to)) {
    throw conflict(`A ${row.status} session cannot become ${to}`, {
      status: row.status,
      allowed: TRANSITIONS[row.status],
    });
  }
  if (to === "active") return startSession(ctx, row);
  if (row.status === "draft") return cancelDraft(ctx, row);
  return closeActive(ctx, row, to as "completed" | "cancelled");
}

async function startSession(ctx: SessionCtx, row: SessionRow): Promise<SessionRow> {
  const live = await ctx.db.get<{ loc: number; cat: number }>(sql`SELECT
    ${row.locationId ? sql`EXISTS (SELECT 1 FROM locations WHERE id = ${row.locationId} AND deleted_at IS NULL)` : sql`1`} AS loc,
    ${row.categoryId ? sql`EXISTS (SELECT 1 FROM categories WHERE id = ${row.categoryId} AND deleted_at IS NULL)` : sql`1`} AS cat`);
  if (!live?.loc || !live.cat)
    throw conflict("The session's location or category was deleted; change the scope before starting");
  const now = nowIso();
  const next: SessionRow = { ...row, status: "active", startedAt: now, updatedAt: now };
  const done = await commitWrite(
    ctx,
    joinWrites(
      { writes: [...snapshotStatements(ctx.db, row.id, row, now)] },
      // The expected count reads the snapshot just written.
      ifChanged(
        ctx,
        ctx.db
          .update(sessions)
          .set({ status: "active", startedAt: now, updatedAt: now, expectedCount: expectedCountSql(row.id) })
          .where(and(eq(sessions.id, row.id), eq(sessions.status, "draft"))),
        { type: "session.started", subjectId: row.id, payload: toSession(next) },
      ),
    ),
  );
  if (changedRows(done) === 0) throw conflict("The session is no longer a draft (started or cancelled meanwhile)");
  const fresh = await requireSession(ctx, row.id);
  try {
    await sessionObject(ctx, row.id).init(await buildInit(ctx, fresh));
  } catch (err) {
    // The first scan loads the object from D1 instead (callObject), so the start stands.
    console.error(`session ${row.id}: loading the object at start failed`, String(err));
  }
  return fresh;
}

async function cancelDraft(ctx: SessionCtx, row: SessionRow): Promise<SessionRow> {
  const now = nowIso();
  const next: SessionRow = { ...row, status: "cancelled", cancelledAt: now, updatedAt: now };
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(sessions)
        .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
        .where(and(eq(sessions.id, row.id), eq(sessions.status, "draft"))),
      { type: "session.cancelled", subjectId: row.id, payload: toSession(next) },
    ),
  );
  if (changedRows(done) === 0) throw conflict("The session is no longer a draft (started or cancelled meanwhile)");
  return next;
}

/**
 * Completes or cancels an active session. The object closes first (no scan can slip in after the
 * report) and writes everything through; only then is the report computed from D1 and stored with
 * the status change and its event in one batch. A retry after a failure part-way repeats safely.
 */
async function closeActive(ctx: SessionCtx, row: SessionRow, to: "completed" | "cancelled"): Promise<SessionRow> {
  const closed = await callObject(ctx, row.id, (o) => o.close(to));
  if ("error" in closed)
    throw new ApiError("service_unavailable", "The session's scans could not be written through yet; retry shortly");
  const now = nowIso();
  const stamp = to === "completed" ? { completedAt: now } : { cancelledAt: now };
  const report = await buildReport(ctx, { ...row, status: to, ...stamp });
  const next: SessionRow = {
    ...row,
    status: to,
    ...stamp,
    updatedAt: now,
    report,
    expectedCount: report.expected,
    scannedCount: report.scanned,
  };
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(sessions)
          .set({
            status: to,
            ...stamp,
            updatedAt: now,
            report,
            expectedCount: report.expected,
            scannedCount: report.scanned,
          })
          .where(and(eq(sessions.id, row.id), eq(sessions.status, "active"))),
        { type: `session.${to}`, subjectId: row.id, payload: { session: toSession(next), report } },
      ),
      // Health: who was found or missing, and those assets' scores stale (each statement checks the completion took effect).
      { derived: to === "completed" ? sessionCompletedStatements(ctx.db, row, now) : [] },
    ),
  );
  if (changedRows(done) === 0) {
    const fresh = await requireSession(ctx, row.id);
    if (fresh.status === to) return fresh;
    throw conflict(`The session is ${fresh.status}`, { status: fresh.status });
  }
  if (to === "completed") await settleHealthBacklog({ ...ctx, settings: settingsOf(ctx.tenant) });
  return next;
}
