import { describe, expect, it } from "vitest";
import { COMMON_TEXT, COMMON_TEXT_WINDOW } from "../../src/modules/assets/text-match";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

/**
 * A list's `q` matches word prefixes anywhere in the name ("pro" finds "MacBook Pro"),
 * as well as a prefix of the whole name, tag or serial, on every list that takes `q`.
 */
const names = async (t: TestTenant, path: string) =>
  (await api<Page<{ name: string }>>(t, path)).body.items.map((i) => i.name).sort();

describe("list q: word prefixes anywhere in the name", () => {
  it("inventory items, availability and the label filter's list find a later word of the name", async () => {
    const t = await createTenant();
    for (const name of ["MacBook Pro 14", "Dell Latitude", "Projector Epson", "Surface Pro-X"])
      expect((await api(t, "/inventory-items", { body: { name } })).status).toBe(201);
    expect(await names(t, "/inventory-items?q=pro")).toEqual(["MacBook Pro 14", "Projector Epson", "Surface Pro-X"]);
    expect(await names(t, "/inventory-items?q=PRO")).toEqual(["MacBook Pro 14", "Projector Epson", "Surface Pro-X"]);
    // Every term must match a word; the whole-name prefix still works, one letter included.
    expect(await names(t, "/inventory-items?q=macbook%20pro")).toEqual(["MacBook Pro 14"]);
    expect(await names(t, "/inventory-items?q=lat")).toEqual(["Dell Latitude"]);
    expect(await names(t, "/inventory-items?q=d")).toEqual(["Dell Latitude"]);
    expect(await names(t, "/inventory-items?q=ook")).toEqual([]); // inside a word: not a prefix
    // FTS syntax is plain text.
    expect((await api(t, "/inventory-items?q=pro%22%20OR%20NEAR(")).status).toBe(200);
    const from = encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 2 * 86_400_000).toISOString());
    expect(await names(t, `/bookings/availability?from=${from}&to=${to}&q=pro`)).toEqual([
      "MacBook Pro 14",
      "Projector Epson",
      "Surface Pro-X",
    ]);
  });

  it("people and stock items find a later word of the name too", async () => {
    const t = await createTenant();
    await seedPerson(t, { name: "Ada Lovelace" });
    await seedPerson(t, { name: "Grace Hopper" });
    expect(await names(t, "/people?q=love")).toEqual(["Ada Lovelace"]);
    expect(await names(t, "/people?q=ada")).toEqual(["Ada Lovelace"]);
    expect(await names(t, "/people?q=hop")).toEqual(["Grace Hopper"]);
    for (const name of ["Printer paper A4", "Toner black"])
      expect((await api(t, "/stock-items", { body: { name } })).status).toBe(201);
    expect(await names(t, "/stock-items?q=paper")).toEqual(["Printer paper A4"]);
    expect(await names(t, "/stock-items?q=blA")).toEqual(["Toner black"]);
    expect(await names(t, "/stock-items?q=ton")).toEqual(["Toner black"]);
  });

  it("a common q (COMMON_TEXT matches or more) lists the same matches in the same order, page by page", async () => {
    const t = await createTenant();
    // Old assets named "Lamp n" (ids before any the API makes), written through the triggers as any write.
    await (await rawDbOf(t))
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${COMMON_TEXT + 9})
         INSERT INTO assets (id, name, unique_tag, category_id, location_id, created_at, updated_at)
         SELECT 'ast_' || printf('%026d', i), 'Lamp ' || i, 'LQ-' || i, 'cat_x', 'loc_x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
      )
      .run();
    // Newer ones matching each way (a later word, the name, the tag, the serial) between ones that do not.
    const made: string[] = [];
    for (const body of [
      { name: "Desk lamp" },
      { name: "Chair" },
      { name: "Lamp shade" },
      { name: "Tag holder", uniqueTag: "LAMP-7" },
      { name: "Table" },
      { name: "Serial holder", serialNumber: "lamp123" },
    ]) {
      const res = await api<{ id: string; name: string }>(t, "/inventory-items", { body });
      expect(res.status).toBe(201);
      made.push(res.body.name);
    }
    const page = async (cursor?: string) =>
      (await api<Page<{ name: string }>>(t, `/inventory-items?q=lamp&limit=6${cursor ? `&cursor=${cursor}` : ""}`))
        .body;
    const first = await page();
    expect(first.items.map((i) => i.name)).toEqual([
      "Serial holder",
      "Tag holder",
      "Lamp shade",
      "Desk lamp",
      `Lamp ${COMMON_TEXT + 9}`,
      `Lamp ${COMMON_TEXT + 8}`,
    ]);
    const second = await page(first.nextCursor!);
    expect(second.items.map((i) => i.name)).toEqual(Array.from({ length: 6 }, (_, k) => `Lamp ${COMMON_TEXT + 7 - k}`));
    expect(made).toContain("Chair");
  });

  it("a common q finds word matches beyond its window of matches, on the first page and deeper", async () => {
    const t = await createTenant();
    const raw = await rawDbOf(t);
    const id = (i: number) => `ast_${String(i).padStart(26, "0")}`;
    const insert = (from: number, to: number, idSql: string, nameSql: string, tag = "'LW-' || i") =>
      raw
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
           INSERT INTO assets (id, name, unique_tag, category_id, location_id, created_at, updated_at)
           SELECT ${idSql}, ${nameSql}, ${tag}, 'cat_x', 'loc_x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
        )
        .run();
    const n = COMMON_TEXT + 10;
    // Rowids follow insertion, ids need not. Written first (the oldest rowid, outside the newest
    // window) with the largest id, so the newest-first list starts with it...
    await insert(0, 0, `'${id(99_999_999)}'`, "'Old desk lamp'", "'LW-old'");
    // ...the common word, as a later word of the name, so the FTS index (not a name prefix) finds them...
    await insert(1, n, "'ast_' || printf('%026d', i)", "'Desk lamp ' || i");
    // ...and written last (outside the oldest window) with the smallest id, so the oldest-first
    // availability list starts with it. Only the fallback past each window finds these two.
    await insert(0, 0, `'${id(0)}'`, "'New desk lamp'", "'LW-new'");
    // The names of each page of 100 up to page `pages`, walked by cursor.
    const walk = async (path: string, pages: number) => {
      const out: string[][] = [];
      let cursor: string | null = null;
      for (let p = 0; p < pages; p++) {
        const res: { status: number; body: Page<{ name: string }> } = await api<Page<{ name: string }>>(
          t,
          `${path}&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        out.push(res.body.items.map((i) => i.name));
        cursor = res.body.nextCursor;
      }
      return out;
    };
    // Pages of 100 up to the first one past the COMMON_TEXT_WINDOW matches at the start.
    const pages = COMMON_TEXT_WINDOW / 100 + 2;
    const range = (a: number, b: number) =>
      Array.from({ length: Math.abs(b - a) + 1 }, (_, k) => (a < b ? a + k : a - k));
    const listed = await walk("/inventory-items?q=lamp", pages);
    expect(listed[0]!.slice(0, 3)).toEqual(["Old desk lamp", `Desk lamp ${n}`, `Desk lamp ${n - 1}`]);
    expect(listed[pages - 1]).toEqual(
      range(n - (pages - 1) * 100 + 1, n - pages * 100 + 2).map((i) => `Desk lamp ${i}`),
    );
    // Availability walks ids upwards: its window is the oldest matches.
    const at = (ms: number) => encodeURIComponent(new Date(Date.now() + ms).toISOString());
    const free = await walk(`/bookings/availability?from=${at(86_400_000)}&to=${at(2 * 86_400_000)}&q=lamp`, pages);
    expect(free[0]!.slice(0, 3)).toEqual(["New desk lamp", "Desk lamp 1", "Desk lamp 2"]);
    expect(free[pages - 1]).toEqual(range((pages - 1) * 100, pages * 100 - 1).map((i) => `Desk lamp ${i}`));
  });
});
