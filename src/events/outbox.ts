import { sql } from "drizzle-orm";
import type { TenantDb } from "../env";
import { outbox } from "../db/tenant/outbox";
import { nowIso } from "../platform/clock";
import { insertWhere } from "../platform/sql";
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
  return db.insert(outbox).values(eventRow(event));
}

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
  return insertWhere(db, outbox, eventRow(event), sql`changes() > 0`);
}
