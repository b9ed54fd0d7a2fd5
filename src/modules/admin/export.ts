import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as tenantSchema from "../../db/tenant/schema";
import type { Bindings } from "../../env";
import { rawTenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";

/** Credentials never leave the service, not even in an export: these tables are left out... */
const SECRET_TABLES = new Set(["refresh_tokens", "realtime_tickets"]);
/** ...and these columns are dropped from the tables that are exported. */
const SECRET_COLUMNS = new Set(["password_hash", "key_hash", "token_hash"]);
const PAGE = 500;

/** The workspace's tables, from the drizzle schema (derived tables such as the FTS index are not data). */
export const exportedTables = (): string[] =>
  Object.values(tenantSchema)
    .filter((v) => is(v, SQLiteTable))
    .map((t) => getTableName(t as SQLiteTable))
    .filter((n) => !SECRET_TABLES.has(n))
    .sort();

/**
 * The workspace's data as one JSON document, streamed table by table in pages of rows (by rowid),
 * so its size is bounded by the database, not by memory: `{ workspace, exportedAt, tables: { name: [rows] } }`.
 */
export function exportWorkspace(env: Bindings, tenant: TenantRecord): ReadableStream<Uint8Array> {
  const db = rawTenantDb(env, tenant.dbBinding);
  const encoder = new TextEncoder();
  async function* parts(): AsyncGenerator<string> {
    const head = {
      workspace: {
        id: tenant.id,
        slug: tenant.slug,
        plan: tenant.plan,
        settings: tenant.settings,
        createdAt: tenant.createdAt,
      },
      exportedAt: new Date().toISOString(),
    };
    yield `${JSON.stringify(head).slice(0, -1)},"tables":{`;
    for (const [i, name] of exportedTables().entries()) {
      yield `${i > 0 ? "," : ""}${JSON.stringify(name)}:[`;
      for (let after = 0, first = true; ; first = false) {
        const { results } = await db
          .prepare(`SELECT rowid AS "__rowid", * FROM "${name}" WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`)
          .bind(after)
          .all<Record<string, unknown>>();
        const rows = results.map(({ __rowid, ...row }) =>
          JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMNS.has(k)))),
        );
        if (rows.length > 0) yield `${first ? "" : ","}${rows.join(",")}`;
        if (results.length < PAGE) break;
        after = Number(results[results.length - 1]!.__rowid);
      }
      yield "]";
    }
    yield "}}";
  }
  const it = parts();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}
