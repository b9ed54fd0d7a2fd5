import { and, eq, inArray, sql } from "drizzle-orm";
import { sessionItems, sessions } from "../../db/tenant/sessions";
import { recordTombstones, syncRows, tombstoneArrayHas, tombstoneField } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { conflict } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncPage } from "../../platform/sync";
import { assignedOnCreate, assignedOnEdit } from "./assigned";
import { requireSession, type SessionCtx, type SessionRow, sessionObject } from "./context";
import { transition } from "./lifecycle";
import { checkRefs } from "./refs";
import type { CreateSessionInput, UpdateSessionInput } from "./schemas";
import { toSession } from "./view";

export { toSession };

/** Newest first; `status`, `locationId` and `assigneeId` narrow the list. */
export async function listSessions(
  { db }: SessionCtx,
  input: {
    limit: number;
    cursor?: string;
    status?: SessionRow["status"];
    locationId?: string;
    assigneeId?: string;
    updatedSince?: string;
  },
) {
  const filters = and(
    input.status ? eq(sessions.status, input.status) : undefined,
    input.locationId ? eq(sessions.locationId, input.locationId) : undefined,
    input.assigneeId
      ? sql`EXISTS (SELECT 1 FROM json_each(${sessions.assigneeIds}) WHERE value = ${input.assigneeId})`
      : undefined,
  );
  if (input.updatedSince) {
    // Sync order; deleted sessions come back from their tombstones (docs/api-platform.md).
    const rows = await syncRows(db, "session", sessions, { ...input, updatedSince: input.updatedSince }, filters, [
      ...(input.status ? [tombstoneField("status", input.status)] : []),
      ...(input.locationId ? [tombstoneField("locationId", input.locationId)] : []),
      ...(input.assigneeId ? [tombstoneArrayHas("assigneeIds", input.assigneeId)] : []),
    ]);
    return syncPage(rows, input.limit, (r) => ({ ...toSession(r), deletedAt: r.deletedAt ?? null }));
  }
  const page = keyset(input, { by: [sessions.id], desc: true });
  const rows = await db
    .select()
    .from(sessions)
    .where(and(filters, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toSession);
}

export const getSession = (ctx: SessionCtx, id: string) => requireSession(ctx, id);

export async function createSession(ctx: SessionCtx, input: CreateSessionInput): Promise<SessionRow> {
  await checkRefs(ctx.db, input);
  const now = nowIso();
  const row: SessionRow = {
    id: newId("session"),
    name: input.name,
    status: "draft",
    locationId: input.locationId ?? null,
    includeSubLocations: input.includeSubLocations ?? true,
    categoryId: input.categoryId ?? null,
    dueAt: isoOrNull(input.dueAt),
    assigneeIds: [...new Set(input.assigneeIds ?? [])],
    scheduleId: null,
    scheduledFor: null,
    expectedCount: 0,
    scannedCount: 0,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    report: null,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
  };
  await commitWrite(
    ctx,
    joinWrites(
      {
        writes: [ctx.db.insert(sessions).values(row)],
        events: [{ type: "session.created", subjectId: row.id, payload: toSession(row) }],
      },
      assignedOnCreate(ctx, row),
    ),
  );
  return input.status === "active" ? transition(ctx, row, "active") : row;
}

/** Timestamps are stored in one ISO form (UTC, milliseconds) so they compare as strings. */
const isoOrNull = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null);

const SCOPE_KEYS = ["locationId", "includeSubLocations", "categoryId"] as const;

/**
 * Field edits, then the status transition if one is asked for. Name, due date and assignees can
 * change until the session ends; the scope only while it is a draft (the expected set is taken at start).
 */
export async function updateSession(ctx: SessionCtx, id: string, input: UpdateSessionInput): Promise<SessionRow> {
  let current = await requireSession(ctx, id);
  const { status, ...fields } = input;
  const changed = Object.keys(fields) as (keyof typeof fields)[];
  if (changed.length > 0) {
    if (current.status === "completed" || current.status === "cancelled")
      throw conflict(`A ${current.status} session cannot be edited`, { status: current.status });
    if (current.status !== "draft" && changed.some((k) => (SCOPE_KEYS as readonly string[]).includes(k))) {
      throw conflict(
        "The scope (locationId, includeSubLocations, categoryId) can only change while the session is a draft; include or exclude items instead",
        { status: current.status },
      );
    }
    await checkRefs(ctx.db, fields);
    const next: SessionRow = {
      ...current,
      ...fields,
      dueAt: fields.dueAt === undefined ? current.dueAt : isoOrNull(fields.dueAt),
      assigneeIds: fields.assigneeIds ? [...new Set(fields.assigneeIds)] : current.assigneeIds,
      updatedAt: nowIso(),
    };
    // New assignees hear of it only if this edit is written and they were not assigned meanwhile.
    const notice = assignedOnEdit(ctx, current, next);
    const done = await commitWrite(
      ctx,
      joinWrites(
        ifChanged(
          ctx,
          ctx.db
            .update(sessions)
            .set({
              name: next.name,
              locationId: next.locationId,
              includeSubLocations: next.includeSubLocations,
              categoryId: next.categoryId,
              dueAt: next.dueAt,
              assigneeIds: next.assigneeIds,
              updatedAt: next.updatedAt,
            })
            .where(and(eq(sessions.id, id), eq(sessions.status, current.status))),
          { type: "session.updated", subjectId: id, payload: { ...toSession(next), changes: changed } },
        ),
        notice.write,
      ),
    );
    if (changedRows(done) === 0) throw conflict("The session changed meanwhile; reload and retry");
    await notice.afterCommit(done);
    if (next.status === "active" && (fields.name !== undefined || fields.dueAt !== undefined)) {
      await sessionObject(ctx, id).setDetails({ name: next.name, dueAt: next.dueAt });
    }
    current = next;
  }
  return status && status !== current.status ? transition(ctx, current, status) : current;
}

/**
 * Deletes a draft or cancelled session with its item list (completed sessions are the audit
 * record and stay). Scan events stay in the assets' history, carrying the session's name.
 */
export async function deleteSession(ctx: SessionCtx, id: string): Promise<void> {
  const current = await requireSession(ctx, id);
  if (current.status !== "draft" && current.status !== "cancelled") {
    throw conflict(`Only draft or cancelled sessions can be deleted; this one is ${current.status}`, {
      status: current.status,
    });
  }
  if (current.startedAt) await sessionObject(ctx, id).destroy();
  const deletedAt = nowIso();
  const deletable = and(eq(sessions.id, id), inArray(sessions.status, ["draft", "cancelled"]));
  // The tombstone first (same WHERE), so a sync sees the deletion; the database refuses the delete without it.
  const done = await commitWrite(
    ctx,
    joinWrites(
      { writes: [recordTombstones(ctx.db, "session", sessions, deletable!, deletedAt)] },
      ifChanged(ctx, ctx.db.delete(sessions).where(deletable), {
        type: "session.deleted",
        subjectId: id,
        payload: { ...toSession(current), deletedAt },
      }),
      {
        // The item list goes only with the session.
        derived: [
          ctx.db
            .delete(sessionItems)
            .where(and(eq(sessionItems.sessionId, id), sql`NOT EXISTS (SELECT 1 FROM sessions WHERE id = ${id})`)),
        ],
      },
    ),
  );
  if (changedRows(done) === 0) throw conflict("The session changed meanwhile; reload and retry");
}
