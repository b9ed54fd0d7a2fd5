import type { AuditChange } from "../../events/audit";
import type { NewEvent } from "../../events/outbox";
import { auditedFields } from "../custom-fields";
import type { CreatePersonInput, UpdatePersonInput } from "./schemas";
import type { PersonRow, toPerson } from "./view";

type Person = ReturnType<typeof toPerson>;

export const AUDITED_FIELDS = auditedFields("person");

/**
 * What a person create and update are (row, events, audit), described once: the single routes
 * (service.ts, update.ts) and the set-based upsert (upsert.ts) write the same from these.
 */

export function newPersonRow(id: string, at: string, input: CreatePersonInput, customFields: Record<string, unknown>) {
  return {
    id,
    name: input.name,
    email: input.email ?? null,
    employeeNumber: input.employeeNumber ?? null,
    department: input.department ?? null,
    costCenter: input.costCenter ?? null,
    externalId: input.externalId ?? null,
    managerId: input.managerId ?? null,
    title: input.title ?? null,
    phone: input.phone ?? null,
    locationId: input.locationId ?? null,
    notes: input.notes ?? null,
    status: input.status ?? "active",
    customFields,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    deletedBy: null,
  } satisfies PersonRow;
}

/** The patched row (`customFields` already merged and checked). */
export function nextPersonRow(
  cur: PersonRow,
  patch: UpdatePersonInput,
  customFields: Record<string, unknown>,
  at: string,
): PersonRow {
  const { status: _status, customFields: _cf, ...plain } = patch;
  return { ...cur, ...plain, customFields, status: patch.status ?? cur.status, updatedAt: at };
}

/** True when `next` changes no audited field (nothing to write: no event, no audit row). */
export const samePerson = (cur: PersonRow, next: PersonRow) =>
  AUDITED_FIELDS.every((f) => JSON.stringify(cur[f]) === JSON.stringify(next[f]));

export function personCreated(row: PersonRow, out: Person, actor: string, at: string) {
  const event: NewEvent = { type: "person.created", subjectId: row.id, payload: out, actor };
  const audit: AuditChange = {
    entityType: "person",
    entityId: row.id,
    action: "create",
    actor,
    at,
    after: { ...row },
    fields: AUDITED_FIELDS,
  };
  return { events: [event], audit };
}

/**
 * person.updated (with the changed fields, status aside), person.deactivated (with the assets its
 * deactivation checked in) or person.activated, and the audit rows of `cur -> next`.
 */
export function personUpdated(
  cur: PersonRow,
  next: PersonRow,
  out: Person,
  actor: string,
  at: string,
  checkedInAssetIds: readonly string[],
) {
  const statusChange = next.status !== cur.status ? next.status : null;
  const fieldChanges = AUDITED_FIELDS.filter(
    (f) => f !== "status" && JSON.stringify(cur[f]) !== JSON.stringify(next[f]),
  );
  const events: NewEvent[] = [];
  const subjectId = cur.id;
  if (fieldChanges.length > 0)
    events.push({ type: "person.updated", subjectId, payload: { ...out, changes: fieldChanges }, actor });
  if (statusChange === "deactivated")
    events.push({ type: "person.deactivated", subjectId, payload: { ...out, checkedInAssetIds }, actor });
  if (statusChange === "active") events.push({ type: "person.activated", subjectId, payload: out, actor });
  const audit: AuditChange = {
    entityType: "person",
    entityId: cur.id,
    action: statusChange ? "status" : "update",
    actor,
    at,
    before: { ...cur },
    after: { ...next },
    fields: AUDITED_FIELDS,
  };
  return { events, audit };
}
