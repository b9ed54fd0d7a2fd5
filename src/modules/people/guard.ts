import { sql, type SQL } from "drizzle-orm";
import type { TenantDb } from "../../env";

/**
 * A batch statement that fails (rolling the whole `db.batch` back) unless `condition` holds when it
 * runs: the same trick and message format as assets/guard.ts (`guardFailed` recognizes it), but
 * built with the query builder, because drizzle cannot batch `db.run(sql)` statements that carry
 * parameters (its D1 session has no prepared statement to bind them to).
 */
export function guard(db: TenantDb, name: string, condition: SQL) {
  return db
    .select({ ok: sql<null>`json_extract('{}', CASE WHEN ${condition} THEN '$' ELSE ${`guard:${name}`} END)` })
    .from(sql`(SELECT 1)`);
}
