import { auditLog } from "../db/tenant/audit";
import type { TenantDb } from "../env";
import { chunk } from "../platform/d1";
import { insertJsonRows } from "../platform/d1-write";
import { newId } from "../platform/ids";

/** 9 columns per row: 11 rows keep one INSERT under D1's 100 bound parameters. */
const ROWS_PER_INSERT = 11;

export interface AuditChange {
  entityType: string;
  entityId: string;
  action: string;
  actor: string;
  at: string;
  /** Values before and after; only keys in `fields` (default: keys of `after`) are compared. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  fields?: readonly string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The audit_log inserts for one write: a row per changed field (or one field-less row when nothing
 * field-level changed, e.g. a delete). Put them in the same `db.batch` as the write.
 */
export function auditStatements(db: TenantDb, change: AuditChange) {
  return chunk(auditRows(change), ROWS_PER_INSERT).map((part) => db.insert(auditLog).values(part));
}

/** The audit rows of one change (a row per changed field, or one field-less row). */
export function auditRows(change: AuditChange) {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const fields = change.fields ?? Object.keys(after);
  const base = {
    entityType: change.entityType,
    entityId: change.entityId,
    action: change.action,
    actor: change.actor,
    at: change.at,
  };
  const rows = fields
    .filter((f) => !same(before[f], after[f]))
    .map((f) => ({ ...base, id: newId("audit"), field: f, oldValue: before[f] ?? null, newValue: after[f] ?? null }));
  if (rows.length === 0)
    rows.push({ ...base, id: newId("audit"), field: null as unknown as string, oldValue: null, newValue: null });
  return rows;
}

/** The audit rows of many changes as one statement (`insertJsonRows`), for multi-entity writes. */
export function auditStatementsMany(db: TenantDb, changes: readonly AuditChange[]) {
  const rows = changes.flatMap(auditRows);
  return rows.length ? [insertJsonRows(db, auditLog, rows)] : [];
}
