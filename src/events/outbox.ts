import { type SQL, sql } from "drizzle-orm";
import { outbox } from "../db/tenant/outbox";
import type { TenantDb } from "../env";
import { nowIso } from "../platform/clock";
import { batchable, insertJsonRows, insertWhere } from "../platform/d1-write";
import { newId } from "../platform/ids";

export interface NewEvent {
  type: string;
  subjectId?: string;
  payload: Record<string, unknown>;
  actor?: string;
}

/**
 * The outbox insert for an event, to be put in the same `db.batch` as the write it describes,
 * so an event exists if and only if its write happened.
 */
export function recordEvent(db: TenantDb, event: NewEvent) {
  touched.add(db);
  return db.insert(outbox).values(eventRow(event));
}

/** `recordEvent` for many events as one statement (`insertJsonRows`), for multi-entity writes. */
export function recordEvents(db: TenantDb, events: readonly NewEvent[]) {
  if (events.length === 0) return [];
  touched.add(db);
  return [insertJsonRows(db, outbox, events.map(eventRow))];
}

/**
 * Databases (one per request) on which an event was recorded. The guard drains the outbox after a
 * request only when this says so, so writes that record nothing (scans, which the session object
 * writes through later) cost no outbox read. A statement built but not run (its batch failed) only
 * costs a needless drain; an event recorded on another db instance waits for the cron sweep.
 */
const touched = new WeakSet<TenantDb>();
export const recordedEventsOn = (db: TenantDb): boolean => touched.has(db);

const eventRow = (event: NewEvent) => ({
  id: newId("event"),
  type: event.type,
  subjectId: event.subjectId ?? null,
  payload: event.payload,
  actor: event.actor ?? null,
  createdAt: nowIso(),
});

/**
 * `recordEvent` for a write guarded by a WHERE clause: the row is inserted only when the statement
 * just before it in the same `db.batch` changed a row (SQLite `changes()`; a batch runs in order on
 * one connection), so a guarded UPDATE that matched nothing leaves no event behind.
 */
export function recordEventIfChanged(db: TenantDb, event: NewEvent) {
  touched.add(db);
  return insertWhere(db, outbox, eventRow(event), sql`changes() > 0`);
}

/**
 * Events the batch computes as it runs: `select` yields rows `(type, subject_id, payload)` (payload
 * as JSON text), one event each, none when it matches nothing. So an event can carry state only the
 * batch knows (a quantity after concurrent writes) or exist only when a condition holds at that
 * point (a reorder level crossed). Ids are `evt_` + this instant's ULID time + 80 random bits.
 */
export function recordEventsSelected(db: TenantDb, select: SQL, actor: string) {
  touched.add(db);
  const time = newId("event").slice(4, 14);
  return batchable(
    db,
    db.run(
      sql`INSERT INTO ${outbox} (id, type, subject_id, payload, actor, created_at, attempts)
        SELECT ${`evt_${time}`} || lower(hex(randomblob(8))), e.type, e.subject_id, e.payload, ${actor}, ${nowIso()}, 0
        FROM (${select}) e`,
    ),
  );
}
