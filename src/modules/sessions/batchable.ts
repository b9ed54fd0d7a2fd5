import type { TenantDb } from "../../env";

/**
 * drizzle-orm 0.45's D1 `batch` binds parameters on `preparedQuery.stmt`, which raw statements
 * (`db.run(sql\`...\`)`, and so `recordEventIfChanged`) do not have: with parameters they crash the
 * batch. This attaches the prepared statement so a raw statement can sit in a `db.batch`.
 */
export function batchable<T extends object>(db: TenantDb, raw: T): T {
  const { sql } = (raw as unknown as { getQuery(): { sql: string } }).getQuery();
  // `drizzle()` puts the D1 binding on `$client`; TenantDb's declared type leaves it out.
  const client = (db as unknown as { $client: D1Database }).$client;
  return Object.assign(raw, { stmt: client.prepare(sql) });
}
