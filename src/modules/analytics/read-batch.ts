import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../../env";
import { d1Client } from "../../platform/d1-write";

const dialect = new SQLiteAsyncDialect();

/** One read of a batch, typed by its row. */
export type Read<Row> = { query: SQL; row?: Row };
export const read = <Row>(query: SQL): Read<Row> => ({ query });

/**
 * Independent reads as one D1 batch: one round trip where each `db.all` is one (bench/README.md: the
 * replacement-loss route made 13 calls for its 11 reads, and the round trips, not the statements,
 * were most of its time), and every figure from one snapshot (D1 runs a batch as one
 * transaction). Rows come back as objects keyed by column name, as `db.all` returns them. Drizzle's
 * own `db.batch` cannot take raw SQL with parameters (its raw query carries no prepared
 * statement), hence the D1 client with the dialect's rendering of each statement.
 */
export async function readBatch<Rows extends unknown[]>(
  db: TenantDb,
  reads: { [K in keyof Rows]: Read<Rows[K]> },
): Promise<{ [K in keyof Rows]: Rows[K][] }> {
  const d1 = d1Client(db as never);
  const results = await d1.batch(
    (reads as Read<unknown>[]).map((r) => {
      const { sql, params } = dialect.sqlToQuery(r.query);
      return d1.prepare(sql).bind(...params);
    }),
  );
  return results.map((r) => r.results ?? []) as { [K in keyof Rows]: Rows[K][] };
}
