import { describe, expect, it } from "vitest";
import type { ServiceCtx } from "../../src/http/service-context";
import type { ImportDryRun, ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport } from "../../src/modules/import-export/import/jobs";
import type { SearchResults } from "../../src/modules/search";
import type { Page } from "../../src/platform/pagination";
import { newAsset } from "../harness/bookings-helpers";
import { workerFetch } from "../harness/contract";
import { userJwt } from "../harness/principals";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

// Codes wherever a tag is taken (docs/labels.md): search, the import/export `codes` column and sync.

type Code = {
  id: string;
  value: string;
  status: string;
  updatedAt: string;
  holder: { kind: string; id: string; name: string } | null;
};

const attach = (t: TestTenant, value: string, symbology: string, holder: { kind: string; id: string }) =>
  api<Code & Failure>(t, "/codes", { body: { value, symbology, holder } });

async function postCsv<T>(t: TestTenant, path: string, csv: string) {
  const res = await workerFetch(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
      body: csv,
    }),
  );
  return { status: res.status, body: (await res.json()) as T & Failure };
}

async function exportCsv(t: TestTenant) {
  const res = await workerFetch(
    new Request(`${t.base}/exports/inventory-items`, { headers: { authorization: `ApiKey ${t.apiKey}` } }),
  );
  expect(res.status).toBe(200);
  return (await res.text()).replace(/^\uFEFF/, "");
}

async function runImport(t: TestTenant, csv: string) {
  const res = await postCsv<ImportJob>(t, "/imports/inventory-items", csv);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const ctx: ServiceCtx = { db: await dbOf(t), actor: "usr_test", tenantId: t.id } as ServiceCtx;
  await drainImport(ctx, res.body.id);
  const job = (await api<ImportJob>(t, `/imports/${res.body.id}`)).body;
  const rows = (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?limit=100`)).body.items;
  return { job, rows };
}

const codesOf = async (t: TestTenant, id: string) =>
  (await api<Page<Code>>(t, `/codes?holderKind=asset&holderId=${id}&status=active`)).body.items
    .map((c) => c.value)
    .sort();

describe("codes wherever a tag is taken", () => {
  it("search: a code's value finds its holder (asset or stock item) as an exact match", async () => {
    const t = await createTenant();
    const drill = await newAsset(t, "Drill 7");
    await newAsset(t, "Saw 2");
    const stock = await api<{ id: string }>(t, "/stock-items", { body: { name: "Toner black", unit: "pcs" } });
    expect(stock.status, JSON.stringify(stock.body)).toBe(201);
    expect((await attach(t, "C128-drill", "code128", { kind: "asset", id: drill.id })).status).toBe(201);
    expect((await attach(t, "400638133393", "ean13", { kind: "stockItem", id: stock.body.id })).status).toBe(201);
    const jwt = await userJwt(t);
    const search = async (q: string) =>
      (await api<SearchResults>(t, `/search?q=${encodeURIComponent(q)}`, { auth: { jwt } })).body;
    const byCode = await search("c128-DRILL");
    expect(byCode.assets).toEqual([expect.objectContaining({ id: drill.id, name: "Drill 7", exactMatch: true })]);
    const byEan = await search("4006381333931");
    expect(byEan.stockItems).toEqual([expect.objectContaining({ id: stock.body.id, exactMatch: true })]);
    expect(byEan.assets).toEqual([]);
    // A voided code names nothing any more.
    const code = (await api<Page<Code>>(t, `/codes?holderKind=asset&holderId=${drill.id}`)).body.items[0]!;
    expect((await api(t, `/codes/${code.id}/void`, { body: {} })).status).toBe(200);
    expect((await search("C128-drill")).assets).toEqual([]);
  });

  it("export writes a codes column; import adds the codes of the column (a taken value refuses its row, saying so)", async () => {
    const t = await createTenant();
    const drill = await newAsset(t, "Drill 7");
    const saw = await newAsset(t, "Saw 2");
    expect((await attach(t, "C128-drill", "code128", { kind: "asset", id: drill.id })).status).toBe(201);
    expect((await attach(t, "400638133393", "ean13", { kind: "asset", id: drill.id })).status).toBe(201);
    const csv = await exportCsv(t);
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const col = header!.split(",").indexOf("codes");
    expect(col).toBeGreaterThan(0);
    const drillLine = lines.find((l) => l.includes(drill.uniqueTag))!;
    expect(drillLine).toContain("code128:C128-drill; ean13:4006381333931");
    // The export re-imports as no change: the codes are there already.
    const same = await runImport(t, csv);
    expect(same.job).toMatchObject({ refused: 0 });
    expect(same.job.ignoredColumns).not.toContain("codes");
    expect(await codesOf(t, drill.id)).toEqual(["4006381333931", "C128-drill"]);

    // New codes by import: for an existing asset (by tag) and a new one; a bad value is refused in the dry run.
    const file = [
      "uniqueTag,name,codes",
      `${saw.uniqueTag},Saw 2,"code39:SAW 2; qr:https://maker.example/saw?id=2;v=1"`,
      "NEW-1,Ladder,datamatrix:DM-LADDER",
      "NEW-2,Bench,ean13:123",
      "NEW-3,Stool,code128:C128-drill",
    ].join("\r\n");
    const dry = await postCsv<ImportDryRun>(t, "/imports/inventory-items?dryRun=true", file);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.rows.map((r) => r.action)).toEqual(["update", "create", "refused", "create"]);
    expect(dry.body.rows[2]!.errors[0]).toMatchObject({ path: "codes" });
    expect(dry.body.rows[2]!.errors[0]!.message).toContain("EAN-13 holds 12 digits");
    const run = await runImport(t, file);
    expect(run.job).toMatchObject({ refused: 2 });
    expect(await codesOf(t, saw.id)).toEqual(["SAW 2", "https://maker.example/saw?id=2;v=1"]);
    const ladder = run.rows.find((r) => r.row === 2)!;
    expect(await codesOf(t, ladder.id!)).toEqual(["DM-LADDER"]);
    const stool = run.rows.find((r) => r.row === 4)!;
    expect(stool.status).toBe("refused");
    expect(JSON.stringify(stool.errors)).toMatch(
      /fields were created .* a code was refused: .*already on asset 'Drill 7'/,
    );
  });

  it("stock items: the export's codes column, and the import adds a row's codes (a taken value refuses the row, saying so)", async () => {
    const t = await createTenant();
    const made = await api<{ id: string; tag: string }>(t, "/stock-items", {
      body: { name: "Toner black", unit: "pcs" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const toner = made.body;
    expect((await attach(t, "400638133393", "ean13", { kind: "stockItem", id: toner.id })).status).toBe(201);
    const res = await workerFetch(
      new Request(`${t.base}/exports/stock-items`, { headers: { authorization: `ApiKey ${t.apiKey}` } }),
    );
    expect(res.status).toBe(200);
    const csv = (await res.text()).replace(/^\uFEFF/, "");
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header!.split(",")).toContain("codes");
    expect(lines.find((l) => l.includes(toner.tag))).toContain("ean13:4006381333931");
    const stockCodes = async (id: string) =>
      (await api<Page<Code>>(t, `/codes?holderKind=stockItem&holderId=${id}&status=active`)).body.items
        .map((c) => c.value)
        .sort();
    const file = [
      "tag,name,unit,codes",
      `${toner.tag},Toner black,pcs,"code128:TONER-K; ean13:4006381333931"`,
      "STK-NEW1,Paper A4,ream,qr:PAPER-A4",
      "STK-NEW2,Stapler,pcs,ean13:12",
      "STK-NEW3,Pens,box,code128:TONER-K",
    ].join("\r\n");
    const dry = await postCsv<ImportDryRun>(t, "/imports/stock-items?dryRun=true", file);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.rows.map((r) => r.action)).toEqual(["update", "create", "refused", "create"]);
    expect(dry.body.rows[2]!.errors[0]).toMatchObject({ path: "codes" });
    const run = await postCsv<ImportJob>(t, "/imports/stock-items", file);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const ctx: ServiceCtx = { db: await dbOf(t), actor: "usr_test", tenantId: t.id } as ServiceCtx;
    await drainImport(ctx, run.body.id);
    const rows = (await api<Page<ImportRow>>(t, `/imports/${run.body.id}/rows?limit=100`)).body.items;
    expect(await stockCodes(toner.id)).toEqual(["4006381333931", "TONER-K"]);
    expect(await stockCodes(rows.find((r) => r.row === 2)!.id!)).toEqual(["PAPER-A4"]);
    const pens = rows.find((r) => r.row === 4)!;
    expect(pens.status).toBe("refused");
    expect(pens.id).toBeTruthy();
    expect(JSON.stringify(pens.errors)).toMatch(/item was created .* a code was refused: .*already on/);
  });

  it("sync: GET /codes?updatedSince= lists the changes since, voided ones included, oldest first", async () => {
    const t = await createTenant();
    const drill = await newAsset(t, "Drill 7");
    const a = await attach(t, "C128-A", "code128", { kind: "asset", id: drill.id });
    expect(a.status).toBe(201);
    const since = a.body.updatedAt;
    const batch = await api<{ values: string[] }>(t, "/tag-batches", {
      body: { name: "Spare", symbology: "qr", prefix: "SP-", count: 2, digits: 2 },
    });
    expect(batch.status).toBe(201);
    const claimed = await api<Code>(t, "/codes/lookup/SP-01/claim", {
      body: { holder: { kind: "asset", id: drill.id } },
    });
    expect(claimed.status).toBe(200);
    expect((await api(t, `/codes/${a.body.id}/void`, { body: {} })).status).toBe(200);
    const all: Code[] = [];
    for (let cursor = ""; ; ) {
      const page = await api<Page<Code>>(
        t,
        `/codes?updatedSince=${encodeURIComponent(since)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      all.push(...page.body.items);
      if (!page.body.nextCursor) break;
      cursor = page.body.nextCursor;
    }
    expect(all.map((c) => [c.value, c.status])).toEqual(
      expect.arrayContaining([
        ["SP-02", "reserved"],
        ["SP-01", "active"],
        ["C128-A", "void"],
      ]),
    );
    expect(all).toHaveLength(3);
    const stamps = all.map((c) => `${c.updatedAt} ${c.id}`);
    expect([...stamps].sort()).toEqual(stamps);
    // Nothing changed after the last change: an empty page.
    const later = new Date(Date.parse(all.at(-1)!.updatedAt) + 1).toISOString();
    expect((await api<Page<Code>>(t, `/codes?updatedSince=${later}`)).body.items).toEqual([]);
    // A cursor of the plain list is refused on the sync list.
    const plain = await api<Page<Code>>(t, "/codes?limit=1");
    const mixed = await api(t, `/codes?updatedSince=${since}&cursor=${encodeURIComponent(plain.body.nextCursor!)}`);
    expect(mixed.status).toBe(400);
  });
});
