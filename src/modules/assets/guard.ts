import { sql, type SQL } from "drizzle-orm";
import type { TenantDb } from "../../env";

/**
 * D1 has no interactive transactions, but a `db.batch` is atomic: if one statement fails, none of
 * them is applied. A guard is a statement that fails unless `condition` holds, so putting it first
 * makes the rest of the batch (write, history, audit, outbox) conditional on the state it was
 * computed from. Concurrent batches are serialized by D1, so exactly one of two racing writes wins.
 *
 * SQLite has no RAISE outside triggers; an invalid JSON path is the portable way to fail a
 * statement with a message we choose ("bad JSON path: 'guard:<name>'"). Built with the query
 * builder because drizzle's D1 session cannot batch `db.run(sql)` statements that carry parameters.
 */
export function batchGuard(db: TenantDb, name: string, condition: SQL) {
  return db
    .select({ ok: sql<null>`json_extract('{}', CASE WHEN ${condition} THEN '$' ELSE ${`guard:${name}`} END)` })
    .from(sql`(SELECT 1)`);
}

/** True when a batch failed because the guard `name` (or any guard, without a name) did not hold. */
export function guardFailed(err: unknown, name?: string): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  return text.includes(name ? `guard:${name}'` : "guard:");
}
