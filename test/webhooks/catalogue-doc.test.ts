/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import doc from "../../docs/webhooks.md?raw";
import { CATALOGUE } from "../../src/domain/webhook-delivery/catalogue";
import {
  catalogueTable,
  TABLE_END,
  TABLE_START,
  withCatalogueTable,
} from "../../src/domain/webhook-delivery/catalogue-table";

describe("docs/webhooks.md's event table", () => {
  it("is the catalogue's (run `npm run docs:events` after adding an event)", () => {
    expect(doc).toContain(TABLE_START);
    expect(doc).toContain(TABLE_END);
    expect(withCatalogueTable(doc, CATALOGUE)).toBe(doc);
    for (const type of ["booking.created", "kit.checked_out", "request.approved", "stock.received"])
      expect(doc).toContain(`| \`${type}\` |`);
  });

  it("has one row per type, and a new or changed event changes the table", () => {
    const table = catalogueTable(CATALOGUE);
    expect(table.split("\n")).toHaveLength(CATALOGUE.length + 2);
    const added = [...CATALOGUE, { type: "thing.happened", description: "A | pipe.", resource: "asset" as const }];
    expect(withCatalogueTable(doc, added)).not.toBe(doc);
    expect(catalogueTable(added)).toContain("| `thing.happened` | A \\| pipe. | `asset` |");
    expect(() => withCatalogueTable("no markers", CATALOGUE)).toThrow(/markers/);
  });
});
