import { describe, expect, it } from "vitest";
import { COMMON_TEXT } from "../../src/modules/assets/text-match";
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
});
