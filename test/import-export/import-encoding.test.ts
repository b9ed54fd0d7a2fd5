import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ImportDryRun } from "../../src/modules/import-export";
import type { Person } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { expectError } from "../security/harness";

/** A CSV's encoding is honoured or refused by name, and its rows' shape is checked. */
async function postCsv<T = unknown>(t: TestTenant, path: string, body: BodyInit, type = "text/csv") {
  const res = await exports.default.fetch(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": type },
      body,
    }),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
const CAFE = "Name,Email\nCaf\u00e9 Ren\u00e9,rene@example.com\n";

describe("CSV import: encodings and row shape", () => {
  it("invalid UTF-8 without a charset is a 400 naming the first bad byte's row, not a silent U+FFFD", async () => {
    const t = await createTenant();
    const res = await postCsv<Failure<{ row: number; byteOffset: number }[]>>(
      t,
      "/imports/people?dryRun=true",
      latin1("Name,Email\nAnna,anna@example.com\nCaf\u00e9,cafe@example.com\n"),
    );
    expectError(res, 400, "validation_failed");
    expect(res.body.message).toMatch(/not valid UTF-8 in row 2 \(byte \d+ is 0xe9\)/);
    expect(res.body.details[0]).toMatchObject({ path: "body", row: 2 });
  });

  it("a declared charset is honoured (ISO-8859-1, UTF-16) or refused by name", async () => {
    const t = await createTenant();
    const res = await postCsv(t, "/imports/people", latin1(CAFE), "text/csv; charset=iso-8859-1");
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const people = await api<Page<Person>>(t, "/people?q=Caf");
    expect(people.body.items.map((p) => p.name)).toEqual(["Caf\u00e9 Ren\u00e9"]);

    const utf16 = new Uint8Array([0xff, 0xfe, ...[...CAFE].flatMap((c) => [c.charCodeAt(0), 0])]);
    const dry = await postCsv<ImportDryRun>(t, "/imports/people?dryRun=true", utf16, "text/csv; charset=utf-16le");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.refused).toBe(0);

    const unknown = await postCsv<Failure<unknown>>(t, "/imports/people", latin1(CAFE), "text/csv; charset=klingon");
    expectError(unknown, 415, "unsupported_media_type");
    expect(unknown.body.message).toContain("charset 'klingon'");
  });

  it("a UTF-16 file without a declared charset gets a readable message", async () => {
    const t = await createTenant();
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...CAFE].flatMap((c) => [c.charCodeAt(0), 0])]);
    const res = await postCsv<Failure<unknown>>(t, "/imports/people?dryRun=true", utf16);
    expectError(res, 400, "validation_failed");
    expect(res.body.message).toMatch(/UTF-16/);
    expect(res.body.message).not.toContain("\u0000");
  });

  it("refuses a row with more cells than the header, and a NUL in a cell", async () => {
    const t = await createTenant();
    const csv = "Name,Email\nAnna,anna@example.com\nBen,ben@example.com,extra\nC\u0000d,c@example.com\n";
    const res = await postCsv<ImportDryRun>(t, "/imports/people?dryRun=true", csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 3, create: 1, refused: 2 });
    expect(res.body.rows[1]!.errors).toEqual([{ path: "(row)", message: "3 cells, but the header has 2 columns" }]);
    expect(res.body.rows[2]!.errors).toContainEqual({ path: "Name", message: "contains a NUL character" });
  });
});
