import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCtx } from "../../src/http/service-context";
import type { InventoryItem } from "../../src/modules/assets";
import { type ImportDryRun, type ImportJob, type ImportRow, resumeImports } from "../../src/modules/import-export";
import { drainImport, IMPORT_CHAINS, IMPORT_CHUNK } from "../../src/modules/import-export/import/jobs";
import type { Person } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { findTenantById } from "../../src/tenancy/registry";
import { workerFetch } from "../harness/contract";
import { importLinks, postCsvWith } from "../harness/import-export-fixtures";
import { insertAsset } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { failingQueue } from "../harness/worker";

async function postCsv<T = unknown>(t: TestTenant, path: string, csv: string, type = "text/csv") {
  const res = await workerFetch(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": type },
      body: csv,
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

async function count(t: TestTenant, table: string, where = "1 = 1") {
  const db = await dbOf(t);
  return (await db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)))!.n;
}

const ctxOf = async (t: TestTenant): Promise<ServiceCtx> => ({ db: await dbOf(t), actor: "usr_test", tenantId: t.id });

async function setup(t: TestTenant) {
  expect((await api(t, "/categories", { body: { name: "Laptops" } })).status).toBe(201);
  expect(
    (
      await api(t, "/custom-fields", {
        body: { entity: "asset", key: "cost_center", label: "Cost center", type: "text" },
      })
    ).status,
  ).toBe(201);
  expect(
    (await api(t, "/custom-fields", { body: { entity: "asset", key: "ports", label: "Ports", type: "number" } }))
      .status,
  ).toBe(201);
  return insertAsset(t, { name: "Existing", uniqueTag: "EX-1" });
}

const CSV = [
  "Name,Unique Tag,Category,Purchase Cost,Currency,Cost center,ports,status",
  "New laptop,NEW-1,laptops,1200.50,EUR,CC-7,4,available", // create (category by name, custom field by label; status 'available' is what a new item is)
  "Renamed,ex-1,,,,,,", // update of EX-1 (tag case-insensitive)
  "Bad category,NEW-2,Phones,,,,,", // refused: unknown category
  "Bad cost,NEW-3,,12.345,EUR,,,", // refused: EUR has 2 decimals? (checked by the verb) / invalid number below
  "Twice,NEW-1,,,,,,", // refused: same tag as row 1
  ",NEW-4,,,,,,", // refused: name required for a create
  "Ports,NEW-5,,,,,many,", // refused: ports must be a number
  '"Quoted, name",,,,,,,', // create with a generated tag
].join("\r\n");

describe("POST /imports/inventory-items?dryRun=true", () => {
  it("reports per-row actions and errors and writes nothing", async () => {
    const t = await createTenant();
    await setup(t);
    const [assets, outbox] = [await count(t, "assets"), await count(t, "outbox")];
    const res = await postCsv<ImportDryRun>(t, "/imports/inventory-items?dryRun=true", CSV);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, entity: "asset", total: 8, update: 1 });
    const rows = res.body.rows;
    expect(rows[0]).toMatchObject({ row: 1, action: "create", matchKey: "NEW-1", errors: [] });
    expect(rows[1]).toMatchObject({ row: 2, action: "update", errors: [] });
    expect(rows[2]!.errors).toEqual([{ path: "Category", message: "no live category named 'Phones'" }]);
    expect(rows[2]!.action).toBe("refused");
    expect(res.body.ignoredColumns).toEqual([]);
    expect(rows[4]!.errors[0]).toMatchObject({ path: "Unique Tag", message: "the same unique tag as row 1" });
    expect(rows[5]!.errors[0]!.path).toBe("Name");
    expect(rows[6]!.errors[0]!.path).toBe("ports");
    expect(rows[7]).toMatchObject({ action: "create", errors: [] });
    expect([await count(t, "assets"), await count(t, "outbox"), await count(t, "import_jobs")]).toEqual([
      assets,
      outbox,
      0,
    ]);
  });

  it("refuses unknown columns (400), a non-CSV body (415) and too many rows (413)", async () => {
    const t = await createTenant();
    const unknown = await postCsv<ErrorBody>(t, "/imports/inventory-items?dryRun=true", "name,colour\r\nA,red");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("'colour'");
    expect((await postCsv(t, "/imports/inventory-items", "name\r\nA", "application/json")).status).toBe(415);
    const big = `name\r\n${Array.from({ length: 10_001 }, (_, i) => `A${i}`).join("\r\n")}`;
    expect((await postCsv(t, "/imports/inventory-items?dryRun=true", big)).status).toBe(413);
    expect((await postCsv(t, "/imports/inventory-items?dryRun=maybe", "name\r\nA")).status).toBe(400);
  });

  it("plans 10,000 rows in one request", async () => {
    const t = await createTenant();
    await insertAsset(t, { name: "Existing", uniqueTag: "BULK-5" });
    const csv = `name,uniqueTag\r\n${Array.from({ length: 10_000 }, (_, i) => `Bulk ${i},BULK-${i}`).join("\r\n")}`;
    const res = await postCsv(t, "/imports/inventory-items?dryRun=true", csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 10_000, create: 9_999, update: 1, refused: 0 });
  });
});

describe("POST /imports/inventory-items (real run)", () => {
  it("writes valid rows through the asset rules and reports created, updated and refused per row", async () => {
    const t = await createTenant();
    const existing = await setup(t);
    const res = await postCsv<ImportJob>(t, "/imports/inventory-items", CSV);
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toBe(`/api/v1/imports/${res.body.id}`);
    await drainImport(await ctxOf(t), res.body.id);
    const job = await api(t, `/imports/${res.body.id}`);
    expect(job.body).toMatchObject({ status: "completed", total: 8, processed: 8, created: 2, updated: 1, refused: 5 });
    const rows = (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?limit=100`)).body.items;
    expect(rows.map((r) => r.status)).toEqual([
      "created",
      "updated",
      "refused",
      "refused",
      "refused",
      "refused",
      "refused",
      "created",
    ]);
    expect(rows[3]!.errors[0]).toMatchObject({ path: "purchaseCost" }); // the verb's own check (EUR has 2 decimals)
    const created = await api(t, `/inventory-items/${rows[0]!.id}`);
    expect(created.body).toMatchObject({
      name: "New laptop",
      uniqueTag: "NEW-1",
      purchaseCost: 1200.5,
      currency: "EUR",
      customFields: { cost_center: "CC-7", ports: 4 },
    });
    expect((await api<InventoryItem>(t, `/inventory-items/${existing.id}`)).body.name).toBe("Renamed");
    // Same rules as the single routes: timeline, audit, events and health of the created asset.
    expect(await count(t, "asset_timeline", `asset_id = '${rows[0]!.id}' AND type = 'CREATED'`)).toBe(1);
    expect(await count(t, "audit_log", `entity_id = '${rows[0]!.id}'`)).toBeGreaterThan(0);
    expect(await count(t, "outbox", `type = 'asset.created'`)).toBe(2);
    expect(await count(t, "outbox", `type = 'asset.updated' AND subject_id = '${existing.id}'`)).toBe(1);
    expect(await count(t, "asset_health", `asset_id = '${rows[0]!.id}' AND dirty = 0`)).toBe(1);
    const refused = await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?status=refused&limit=2`);
    expect(refused.body.items.map((r) => r.row)).toEqual([3, 4]);
    expect(refused.body.nextCursor).toEqual(expect.any(String));
    expect((await api(t, "/imports/imp_00000000000000000000000000")).status).toBe(404);
  });

  it("imports more rows than one chunk, each exactly once", async () => {
    const t = await createTenant();
    const n = IMPORT_CHUNK * 3 + 15;
    const csv = `name,uniqueTag\r\n${Array.from({ length: n }, (_, i) => `Many ${i},MANY-${i}`).join("\r\n")}`;
    const res = await postCsv<ImportJob>(t, "/imports/inventory-items", csv);
    expect(res.status).toBe(202);
    expect(res.body.processed).toBe(IMPORT_CHUNK); // the first chunk is written before answering
    const ctx = await ctxOf(t);
    await Promise.all([drainImport(ctx, res.body.id), drainImport(ctx, res.body.id)]); // concurrent chunks never share a row
    expect((await api(t, `/imports/${res.body.id}`)).body).toMatchObject({
      status: "completed",
      created: n,
      refused: 0,
    });
    expect(await count(t, "assets", "unique_tag LIKE 'MANY-%'")).toBe(n);
  });
});

describe("POST /imports/people", () => {
  it("creates, updates by email and refuses invalid rows; an export re-imports as updates", async () => {
    const t = await createTenant();
    const ada = await api<Person>(t, "/people", { body: { name: "Ada", email: "ada@example.com" } });
    const csv =
      "name,email,department\r\nAda L.,ADA@example.com,R&D\r\nGrace,grace@example.com,Navy\r\nBad,not-an-email,\r\n";
    const res = await postCsv<ImportJob>(t, "/imports/people", csv);
    expect(res.status).toBe(202);
    await drainImport(await ctxOf(t), res.body.id);
    expect((await api(t, `/imports/${res.body.id}`)).body).toMatchObject({
      status: "completed",
      created: 1,
      updated: 1,
      refused: 1,
    });
    expect((await api(t, `/people/${ada.body.id}`)).body).toMatchObject({ name: "Ada L.", department: "R&D" });

    const exported = await workerFetch(
      new Request(`${t.base}/exports/people`, { headers: { authorization: `ApiKey ${t.apiKey}` } }),
    );
    const dry = await postCsv(t, "/imports/people?dryRun=true", await exported.text());
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ total: 2, update: 2, refused: 0 });
  });
});

describe("background chain", () => {
  it("the request starts the job's chains on the imports Queue; each link writes a chunk and sends its successor", async () => {
    const t = await createTenant();
    const links = importLinks();
    const bindings = { ...env, IMPORTS: links.queue };
    const n = IMPORT_CHUNK * 2 + 5;
    const csv = `name\r\n${Array.from({ length: n }, (_, i) => `Chain ${i}`).join("\r\n")}`;
    const res = await postCsvWith(t, "/imports/inventory-items", csv, bindings);
    expect(res.status).toBe(202);
    expect(res.body.processed).toBe(IMPORT_CHUNK);
    expect(links.sent).toEqual(Array.from({ length: IMPORT_CHAINS }, () => ({ tenantId: t.id, jobId: res.body.id })));
    // Six links, two chunks left: two links write one each, the rest end. A link that finds the job
    // completed after its chunk sends no successor; one that finished first may have sent one.
    const first = await links.run(bindings);
    expect(first.explicitAcks).toHaveLength(IMPORT_CHAINS);
    expect(first.retryMessages).toEqual([]);
    expect(links.sent.length).toBeLessThanOrEqual(1);
    expect((await api(t, `/imports/${res.body.id}`)).body).toMatchObject({ status: "completed", created: n });
    // Such a successor finds nothing pending and ends its chain.
    if (links.sent.length) await links.run(bindings);
    expect(links.sent).toEqual([]);
    expect(await count(t, "assets")).toBe(n);
  });

  it("goes on while the events Queue is down; the rows' events wait in the outbox, none lost", async () => {
    const t = await createTenant();
    const links = importLinks();
    const bindings = { ...env, IMPORTS: links.queue, EVENTS: failingQueue };
    const n = IMPORT_CHUNK + 5;
    const res = await postCsvWith(
      t,
      "/imports/people",
      `name\r\n${Array.from({ length: n }, (_, i) => `P ${i}`).join("\r\n")}`,
      bindings,
    );
    expect(res.status).toBe(202);
    for (let i = 0; i < 3 && links.sent.length; i++) await links.run(bindings);
    expect((await api(t, `/imports/${res.body.id}`)).body).toMatchObject({ status: "completed", created: n });
    expect(await count(t, "outbox", "type = 'person.created' AND dispatched_at IS NULL")).toBe(n);
  });

  it("a link whose successor cannot be sent is retried by the Queue; the chunk it wrote is not written twice", async () => {
    const t = await createTenant();
    const links = importLinks();
    const bindings = { ...env, IMPORTS: links.queue };
    const n = IMPORT_CHUNK * 2 + 5;
    const res = await postCsvWith(
      t,
      "/imports/inventory-items",
      `name\r\n${Array.from({ length: n }, (_, i) => `S ${i}`).join("\r\n")}`,
      bindings,
    );
    const [link] = links.sent.splice(0);
    links.sent.push(link!);
    const down = await links.run({ ...bindings, IMPORTS: failingQueue as unknown as typeof links.queue });
    expect(down.explicitAcks).toEqual([]);
    expect(down.retryMessages).toHaveLength(1);
    expect((await api<ImportJob>(t, `/imports/${res.body.id}`)).body.processed).toBe(IMPORT_CHUNK * 2);
    // The redelivered link writes the last chunk; the completing link sends no successor.
    links.sent.push(link!);
    const again = await links.run(bindings);
    expect(again.explicitAcks).toHaveLength(1);
    expect(links.sent).toEqual([]);
    expect((await api<ImportJob>(t, `/imports/${res.body.id}`)).body).toMatchObject({
      status: "completed",
      created: n,
    });
    expect(await count(t, "assets")).toBe(n);
  });

  it("a job whose chains stopped is resumed by the cron, which starts them again", async () => {
    const t = await createTenant();
    const links = importLinks();
    const bindings = { ...env, IMPORTS: links.queue };
    const n = IMPORT_CHUNK * 3 + 5;
    const res = await postCsvWith(
      t,
      "/imports/inventory-items",
      `name\r\n${Array.from({ length: n }, (_, i) => `R ${i}`).join("\r\n")}`,
      bindings,
    );
    links.sent.splice(0); // the chains' links are lost
    const db = await dbOf(t);
    await db.run(sql`UPDATE import_jobs SET updated_at = '2000-01-01T00:00:00.000Z' WHERE id = ${res.body.id}`);
    await resumeImports(bindings, (await findTenantById(env, t.id))!);
    // Two chunks written by the cron itself, the chains started for the last one.
    expect((await api<ImportJob>(t, `/imports/${res.body.id}`)).body.processed).toBe(IMPORT_CHUNK * 3);
    expect(links.sent).toHaveLength(IMPORT_CHAINS);
    await links.run(bindings);
    expect((await api(t, `/imports/${res.body.id}`)).body).toMatchObject({ status: "completed", created: n });
  });
});
