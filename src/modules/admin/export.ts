import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as tenantSchema from "../../db/tenant/schema";
import type { Bindings } from "../../env";
import { rawTenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";

/**
 * Credentials never leave the service, not even in an export (docs/auth.md lists what is stored
 * about each credential). Whole tables left out: sessions and one-time tickets, and the idempotency
 * store (transient answers, kept 24 h), plus the single-use SSO sign-in state (a PKCE verifier).
 */
const WITHHELD_TABLES = new Set([
  "refresh_tokens",
  "realtime_tickets",
  "idempotency_keys",
  "sso_requests",
  "sso_replays",
  // Password resets are one-time secrets of an hour: nothing a workspace's data needs.
  "password_resets",
]);
/** Columns left out of the tables that are exported: hashes of credentials and signing secrets. */
const WITHHELD_COLUMNS: Record<string, readonly string[]> = {
  users: ["password_hash"],
  api_keys: ["key_hash"],
  invites: ["token_hash"],
  calendar_feeds: ["token_hash"],
  // Product keys are secrets (docs/licences.md#product-keys); the export says a key exists, never what it is.
  licence_keys: ["key_sealed"],
  licence_feeds: ["token_hash"],
  webhook_endpoints: ["secret", "previous_secret"],
  scim_tokens: ["token_hash"],
  // A chat incoming-webhook URL is its own credential (docs/notifications.md).
  notification_kind_settings: ["chat_url_sealed"],
};
const PAGE = 500;

const tables = () =>
  (Object.values(tenantSchema) as unknown[])
    .filter((v): v is SQLiteTable => is(v, SQLiteTable))
    .filter((t) => !WITHHELD_TABLES.has(getTableName(t)));

/**
 * The exported columns of every exported table, from the drizzle schema: the export selects these
 * by name (never `*`), so a column the schema does not declare is never exported, and
 * test/admin/export-columns.test.ts holds them against an allowlist.
 */
export function exportedColumns(): Record<string, string[]> {
  return Object.fromEntries(
    tables()
      .map((t): [string, string[]] => {
        const name = getTableName(t);
        const withheld = WITHHELD_COLUMNS[name] ?? [];
        const columns = Object.values(getTableColumns(t)).map((c) => c.name);
        return [name, columns.filter((c) => !withheld.includes(c))];
      })
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

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
    for (const [i, [name, columns]] of Object.entries(exportedColumns()).entries()) {
      const list = columns.map((c) => `"${c}"`).join(", ");
      yield `${i > 0 ? "," : ""}${JSON.stringify(name)}:[`;
      for (let after = 0, first = true; ; first = false) {
        const { results } = await db
          .prepare(`SELECT rowid AS "__rowid", ${list} FROM "${name}" WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`)
          .bind(after)
          .all<Record<string, unknown>>();
        const rows = results.map(({ __rowid, ...row }) => JSON.stringify(row));
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
