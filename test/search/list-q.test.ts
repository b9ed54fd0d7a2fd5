import { describe, expect, it } from "vitest";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";

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
});
