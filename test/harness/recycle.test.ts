import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createAsset } from "./assets-helpers";
import { logClaims, recycleStorage } from "./recycle";
import { api, createTenant } from "./tenant";
import { rawDbOf } from "./tenant-db";

/** Every table's row count, and the schema, of a database. */
async function state(db: D1Database) {
  const { results: schema } = await db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' ORDER BY type, name")
    .all<{ type: string; name: string; sql: string | null }>();
  // Every table but the migration ledger and FTS5's shadow tables (never empty: their index's own records).
  const virtual = schema.filter((s) => /^CREATE VIRTUAL/i.test(s.sql ?? "")).map((s) => s.name);
  const shadow = (name: string) =>
    virtual.some((v) => new RegExp(`^${v}_(data|idx|content|docsize|config)$`).test(name));
  const counts: Record<string, number> = {};
  for (const t of schema.filter((s) => s.type === "table" && s.name !== "d1_migrations" && !shadow(s.name)))
    counts[t.name] = (await db.prepare(`SELECT count(*) AS n FROM "${t.name}"`).first<{ n: number }>())!.n;
  const sequence = "SELECT count(*) AS n FROM sqlite_sequence WHERE name <> 'd1_migrations'";
  counts.sqlite_sequence = (await db.prepare(sequence).first<{ n: number }>())!.n;
  return { schema, counts };
}

// The harness empties what a test file wrote before the next one starts (test/harness/setup.ts); a
// row it missed would leak into another file's lists, a trigger it lost would change the schema.
it("recycling empties every table a workspace wrote, and leaves the schema as it was", async () => {
  const t = await createTenant();
  const db = await rawDbOf(t);
  await createAsset(t, { name: "Drill" });
  expect((await api(t, "/categories", { method: "POST", body: { name: "Tools" } })).status).toBe(201);
  const before = await state(db);
  expect(Object.values(before.counts).filter((n) => n > 0).length).toBeGreaterThan(3);

  await recycleStorage();
  await logClaims();
  const after = await state(db);
  expect(after.schema).toEqual(before.schema);
  expect(Object.entries(after.counts).filter(([, n]) => n > 0)).toEqual([]);
  expect((await env.CONTROL_DB.prepare("SELECT count(*) AS n FROM tenants").first<{ n: number }>())!.n).toBe(0);
});
