import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import { csvCell, csvRecord } from "../../src/modules/import-export/csv";
import type { ScanOutcome, Session } from "../../src/modules/sessions";
import { workerFetch } from "../harness/contract";
import { defaults, insertAsset, insertPerson } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

async function getCsv(t: TestTenant, path: string) {
  const res = await workerFetch(new Request(`${t.base}${path}`, { headers: { authorization: `ApiKey ${t.apiKey}` } }));
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    records: res.status === 200 ? (parse(text, { bom: true, columns: true }) as Record<string, string>[]) : [],
  };
}

describe("csv cells", () => {
  it("quotes per RFC 4180 and neutralises formula starts", () => {
    expect(csvRecord(["plain", 'say "hi"', "a,b", "line\nbreak", null, 12.5, true])).toBe(
      'plain,"say ""hi""","a,b","line\nbreak",,12.5,true\r\n',
    );
    for (const s of ["=1+1", "+1", "-2", "@SUM(A1)", "\t=x"])
      expect(csvCell(s).replace(/^"/, "").startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvCell(-5)).toBe("-5");
  });
});

describe("GET /exports/inventory-items", () => {
  it("streams every matching asset with custom fields as columns and the list's filters", async () => {
    const t = await createTenant();
    const cf = await api(t, "/custom-fields", {
      body: { entity: "asset", key: "cost_center", label: "Cost center", type: "text" },
    });
    expect(cf.status).toBe(201);
    const made = await api<InventoryItem>(t, "/inventory-items", {
      body: { name: "=cmd|' /C calc'!A0", customFields: { cost_center: "CC-1" }, purchaseCost: 12.5, currency: "EUR" },
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < 5; i++) await insertAsset(t, { name: `Bulk ${i}`, status: i % 2 ? "lost" : "available" });
    const all = await getCsv(t, "/exports/inventory-items");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toContain("text/csv");
    expect(all.headers.get("content-disposition")).toMatch(/attachment; filename="inventory-items-/);
    expect(all.records).toHaveLength(6);
    expect(Object.keys(all.records[0]!)).toEqual(
      expect.arrayContaining(["id", "uniqueTag", "category", "healthBadge", "cost_center"]),
    );
    const mine = all.records.find((r) => r.id === made.body.id)!;
    expect(mine).toMatchObject({
      name: "'=cmd|' /C calc'!A0",
      cost_center: "CC-1",
      purchaseCost: "12.5",
      currency: "EUR",
    });
    const lost = await getCsv(t, "/exports/inventory-items?status=lost");
    expect(lost.records.map((r) => r.status)).toEqual(["lost", "lost"]);
    expect((await getCsv(t, "/exports/inventory-items?status=nope")).status).toBe(400);
  });

  it("pages through more assets than one export page", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const { categoryId, locationId } = await defaults(t);
    const now = new Date().toISOString();
    const n = 1203;
    await db.run(sql`INSERT INTO assets (id, name, unique_tag, category_id, location_id, status, created_at, updated_at)
      WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${n - 1})
      SELECT 'ast_' || printf('%026d', i), 'A ' || i, 'T-' || i, ${categoryId}, ${locationId}, 'available', ${now}, ${now} FROM k`);
    const res = await getCsv(t, "/exports/inventory-items");
    expect(res.status).toBe(200);
    expect(res.records).toHaveLength(n);
    expect(new Set(res.records.map((r) => r.id)).size).toBe(n);
  });
});

describe("GET /exports/people", () => {
  it("exports people with custom fields, active by default, all with status=all", async () => {
    const t = await createTenant();
    await api(t, "/custom-fields", { body: { entity: "person", key: "badge", label: "Badge", type: "number" } });
    await api(t, "/people", { body: { name: "Ada", email: "ada@example.com", customFields: { badge: 7 } } });
    await insertPerson(t, { name: "Gone", status: "deactivated" });
    const res = await getCsv(t, "/exports/people");
    expect(res.status).toBe(200);
    expect(res.records).toEqual([
      expect.objectContaining({ name: "Ada", email: "ada@example.com", badge: "7", status: "active" }),
    ]);
    expect((await getCsv(t, "/exports/people?status=all")).records).toHaveLength(2);
  });
});

describe("GET /exports/sessions/:sessionId/report", () => {
  it("exports a session's items with their state, and 404s an unknown session", async () => {
    const t = await createTenant();
    const [seen, unseen] = [await insertAsset(t, { name: "Seen" }), await insertAsset(t, { name: "Unseen" })];
    const session = await api<Session>(t, "/sessions", { body: { name: "Audit", status: "active" } });
    expect(session.status).toBe(201);
    expect(
      (await api<ScanOutcome>(t, `/sessions/${session.body.id}/scan`, { body: { itemId: seen.id } })).body.result,
    ).toBe("accepted");
    const res = await getCsv(t, `/exports/sessions/${session.body.id}/report`);
    expect(res.status).toBe(200);
    const state = Object.fromEntries(res.records.map((r) => [r.assetId, r.state]));
    expect(state).toEqual({ [seen.id]: "scanned", [unseen.id]: "missing" });
    expect((await getCsv(t, "/exports/sessions/ses_00000000000000000000000000/report")).status).toBe(404);
  });
});
