import type { TenantDb } from "../env";
import { outbox } from "../db/tenant/outbox";
import { nowIso } from "../platform/clock";
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
  return db.insert(outbox).values({
    id: newId("event"),
    type: event.type,
    subjectId: event.subjectId ?? null,
    payload: event.payload,
    actor: event.actor ?? null,
    createdAt: nowIso(),
  });
}
