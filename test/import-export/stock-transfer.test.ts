import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCtx } from "../../src/http/service-context";
import type { ImportDryRun, ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport, PER_ROW_CHUNK } from "../../src/modules/import-export/import/jobs";
import type { StockItem, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { workerFetch } from "../harness/contract";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** Stock items and movements as CSV, and stock items imported with opening quantities as movements. */

async function send(t: TestTenant, path: string, init: RequestInit = {}) {
  const headers = { authorization: `ApiKey ${t.apiKey}`, ...(init.headers as Record<string, string>) };
  return workerFetch(new Request(`${t.base}${path}`, { ...init, headers }));
}

async function postCsv<T>(t: TestTenant, path: string, csv: string) {
  const res = await send(t, path, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
  return { status: res.status, body: (await res.json()) as T };
}

async function exported(t: TestTenant, path: string) {
  const res = await send(t, path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  const text = (await res.text()).replace(/^\uFEFF/, "");
  return { text, records: parse(text, { columns: true }) as Record<string, string>[] };
}

const ctxOf = async (t: TestTenant): Promise<ServiceCtx> => ({ db: await dbOf(t), actor: "usr_test", tenantId: t.id });

async function runImport(t: TestTenant, csv: string) {
  const res = await postCsv<ImportJob>(t, "/imports/stock-items", csv);
  expect(res.status).toBe(202);
  await drainImport(await ctxOf(t), res.body.id);
  return {
    job: (await api<ImportJob>(t, `/imports/${res.body.id}`)).body,
    rows: (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?limit=100`)).body.items,
  };
}

async function movementsOf(t: TestTenant, itemId: string) {
  return (await api<Page<StockMovement>>(t, `/stock-items/${itemId}/movements?limit=100`)).body.items;
}

async function levelsOf(t: TestTenant, itemId: string) {
  const page = await api<Page<{ locationId: string; quantity: number }>>(t, `/stock-items/${itemId}/levels`);
  return Object.fromEntries(page.body.items.map((l) => [l.locationId, l.quantity]));
}

async function locations(t: TestTenant) {
  const main = await api<{ id: string }>(t, "/locations", { body: { name: "Main store" } });
  const van = await api<{ id: string }>(t, "/locations", { body: { name: "Van: 2" } });
  expect([main.status, van.status]).toEqual([201, 201]);
  return { main: main.body.id, van: van.body.id };
}

describe("stock CSV", () => {
  it("imports stock items with opening quantities as receive movements; refuses bad rows by name; reports ignored columns", async () => {
    const t = await createTenant();
    const loc = await locations(t);
    expect((await api(t, "/categories", { body: { name: "Consumables" } })).status).toBe(201);
    expect(
      (await api(t, "/custom-fields", { body: { entity: "stock_item", key: "bin", label: "Bin", type: "text" } }))
        .status,
    ).toBe(201);
    const csv = [
      "name,tag,sku,category,unit,unitCost,currency,returnable,requestable,reorderLevel,notes,Bin,quantities,onHand,low",
      "Toner,TON-1,HP-26A,consumables,each,79.90,EUR,no,yes,2,black,B-3,Main store: 10; Van: 2: 3,13,false",
      "Drill bits,,DB-6,,box,,,,,,,,main store: 0,,", // generated tag; a 0 quantity writes no movement
      "Mouse,MOU-1,,,each,,,yes,,,,,,,",
      "Cable,CAB-1,,Cables,each,,,,,,,,Nowhere: 3,,", // refused: category and location unknown
      "Battery,BAT-1,,,each,,,,,,,,Main store: -1; Main store: 2,,", // refused: not a whole number
      "Toner again,ton-1,,,,,,,,,,,,,", // refused: same tag as row 1
      ",SKU-ONLY,,,,,,,,,,,,,", // refused: a create needs a name
    ].join("\r\n");
    const dry = await postCsv<ImportDryRun>(t, "/imports/stock-items?dryRun=true", csv);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ entity: "stock_item", total: 7, create: 3, refused: 4 });
    expect(dry.body.ignoredColumns).toEqual(["onHand", "low"]);
    const d = dry.body.rows;
    expect(d.map((r) => r.action)).toEqual(["create", "create", "create", "refused", "refused", "refused", "refused"]);
    expect(d[3]!.errors).toEqual([
      { path: "category", message: "no live category named 'Cables'" },
      { path: "quantities", message: "row 4: no live location 'Nowhere'" },
    ]);
    expect(d[4]!.errors).toEqual([
      {
        path: "quantities",
        message: "row 5: 'Main store: -1' is not 'location: whole number' (0 to 1000000000)",
      },
    ]);
    expect(d[5]!.errors).toEqual([{ path: "tag", message: "the same tag as row 1" }]);
    expect(d[6]!.errors[0]!.path).toBe("name");
    expect(await (await dbOf(t)).get<{ n: number }>(sql`SELECT count(*) AS n FROM stock_items`)).toEqual({ n: 0 });

    const { job, rows } = await runImport(t, csv);
    expect(job).toMatchObject({ entity: "stock_item", status: "completed", created: 3, refused: 4 });
    expect(job.ignoredColumns).toEqual(["onHand", "low"]);
    expect(rows.map((r) => r.action)).toEqual(["create", "create", "create", ...Array(4).fill("refused")]);
    const toner = (await api<StockItem>(t, `/stock-items/${rows[0]!.id}`)).body;
    expect(toner).toMatchObject({
      name: "Toner",
      tag: "TON-1",
      sku: "HP-26A",
      unitCost: 79.9,
      currency: "EUR",
      returnable: false,
      requestable: true,
      reorderLevel: 2,
      notes: "black",
      customFields: { bin: "B-3" },
      onHand: 13,
    });
    expect(await levelsOf(t, toner.id)).toEqual({ [loc.main]: 10, [loc.van]: 3 });
    const moves = await movementsOf(t, toner.id);
    expect(moves.map((m) => [m.kind, m.quantity, m.toLocationId, m.note])).toEqual([
      ["receive", 10, loc.main, "Opening quantity"],
      ["receive", 3, loc.van, "Opening quantity"],
    ]);
    expect(moves[0]!.reference).toBe(`CSV import ${job.id}`);
    const bits = (await api<StockItem>(t, `/stock-items/${rows[1]!.id}`)).body;
    expect(bits).toMatchObject({ unit: "box", onHand: 0, sku: "DB-6" });
    expect(bits.tag).toMatch(/^STK-/);
    expect(await movementsOf(t, bits.id)).toEqual([]);
    expect((await api<StockItem>(t, `/stock-items/${rows[2]!.id}`)).body.returnable).toBe(true);
  });

  it("exports items with their quantities and movements; the export re-imports as no change; a new count adjusts", async () => {
    const t = await createTenant();
    const loc = await locations(t);
    const item = await api<StockItem>(t, "/stock-items", { body: { name: "Gloves", sku: "GL-1", tag: "GLV-1" } });
    expect(item.status).toBe(201);
    const id = item.body.id;
    for (const [locationId, quantity] of [
      [loc.main, 40],
      [loc.van, 5],
    ] as const)
      expect(
        (await api(t, `/stock-items/${id}/receive`, { body: { locationId, quantity, supplier: "ACME" } })).status,
      ).toBe(201);
    const items = await exported(t, "/exports/stock-items");
    expect(items.records).toHaveLength(1);
    expect(items.records[0]).toMatchObject({
      id,
      tag: "GLV-1",
      sku: "GL-1",
      quantities: "Main store: 40; Van: 2: 5",
      onHand: "45",
    });
    const movements = await exported(t, "/exports/stock-movements?kind=receive");
    expect(movements.records.map((m) => [m.kind, m.itemTag, m.item, m.quantity, m.toLocation, m.supplier])).toEqual([
      ["receive", "GLV-1", "Gloves", "40", "Main store", "ACME"],
      ["receive", "GLV-1", "Gloves", "5", "Van: 2", "ACME"],
    ]);

    // The export as it is: an update per item, not one movement written.
    const same = await runImport(t, items.text);
    expect(same.job).toMatchObject({ updated: 1, refused: 0 });
    expect(same.job.ignoredColumns).toEqual(["id", "onHand", "low", "createdAt", "updatedAt"]);
    expect(await movementsOf(t, id)).toHaveLength(2);

    // A recount in the file (matched by SKU): adjust movements to the stated quantities, with the import as reason.
    const recount = await runImport(t, "sku,quantities\r\ngl-1,Main store: 38; Van: 2: 5");
    expect(recount.rows[0]).toMatchObject({ action: "update", status: "updated", id });
    const after = await movementsOf(t, id);
    expect(after.slice(2).map((m) => [m.kind, m.quantity, m.fromLocationId, m.countedQuantity, m.reason])).toEqual([
      ["adjust", 2, loc.main, 38, `CSV import ${recount.job.id}`],
    ]);
    expect(await levelsOf(t, id)).toEqual({ [loc.main]: 38, [loc.van]: 5 });
    const all = await exported(t, "/exports/stock-movements");
    expect(all.records.map((r) => r.kind)).toEqual(["receive", "receive", "adjust"]);
  });

  it(`writes at most ${PER_ROW_CHUNK} stock rows per chunk, exports past D1's parameter cap, and refuses oversized files and unknown columns`, async () => {
    const t = await createTenant();
    const loc = await locations(t);
    // 120 rows: past D1's 100 parameters for every per-file lookup and every export page (one JSON parameter each).
    const csv = `name,tag,quantities\r\n${Array.from({ length: 120 }, (_, i) => `Part ${i},P-${i},Main store: ${i + 1}`).join("\r\n")}`;
    const res = await postCsv<ImportJob>(t, "/imports/stock-items", csv);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "running", processed: PER_ROW_CHUNK });
    await drainImport(await ctxOf(t), res.body.id);
    expect((await api<ImportJob>(t, `/imports/${res.body.id}`)).body).toMatchObject({
      status: "completed",
      created: 120,
    });
    const db = await dbOf(t);
    const sum = await db.get<{ n: number; q: number }>(
      sql`SELECT count(*) AS n, sum(quantity) AS q FROM stock_movements WHERE kind = 'receive' AND to_location_id = ${loc.main}`,
    );
    expect(sum).toEqual({ n: 120, q: (120 * 121) / 2 });
    const items = await exported(t, "/exports/stock-items");
    expect(items.records).toHaveLength(120);
    expect(items.records.find((r) => r.tag === "P-119")).toMatchObject({
      quantities: "Main store: 120",
      onHand: "120",
    });
    expect((await exported(t, "/exports/stock-movements")).records).toHaveLength(120);
    const again = await postCsv<ImportDryRun>(t, "/imports/stock-items?dryRun=true", items.text);
    expect(again.body).toMatchObject({ update: 120, refused: 0 });
    const unknown = await postCsv<ErrorBody>(t, "/imports/stock-items?dryRun=true", "name,colour\r\nA,red");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("'colour'");
    const big = `name\r\n${Array.from({ length: 10_001 }, (_, i) => `S${i}`).join("\r\n")}`;
    expect((await postCsv(t, "/imports/stock-items?dryRun=true", big)).status).toBe(413);
    const heavy = `name,notes\r\nA,${"x".repeat(5 * 1024 * 1024)}`;
    expect((await postCsv(t, "/imports/stock-items?dryRun=true", heavy)).status).toBe(413);
  });
});
