import { describe, expect, it } from "vitest";
import type { ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport } from "../../src/modules/import-export/import/jobs";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { workerFetch } from "../harness/contract";
import { seedPerson } from "../harness/people";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/**
 * Deactivating a person returns what they hold as the return route would: to the location it was
 * issued from, which must be live; stock from a deleted location refuses that person's deactivation.
 */
async function strandedHolder(t: TestTenant, name: string) {
  const gone = await newLocation(t, "Old store");
  const headset = await newStockItem(t, { name: "Headset", returnable: true });
  await receive(t, headset.id, gone, 1);
  const person = await seedPerson(t, { name, email: `${name.toLowerCase()}@example.com` });
  const issued = await move(t, headset.id, "issue", { locationId: gone, quantity: 1, personId: person.id });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  const del = await api(t, `/locations/${gone}`, { method: "DELETE" });
  expect(del.status, JSON.stringify(del.body)).toBe(204);
  // The return route refuses that location too.
  const back = await move<ErrorBody>(t, headset.id, "return", { issueId: issued.body.movement.id });
  expect(back.status).toBe(400);
  return { person, headset, issueId: issued.body.movement.id, gone };
}

const refusal = (personId: string, issueId: string, gone: string) =>
  expect.objectContaining({
    code: "conflict",
    details: expect.objectContaining({
      reason: "stock_return_location_deleted",
      personId,
      stock: [expect.objectContaining({ issueId, locationId: gone })],
    }),
  });

describe("deactivation returns stock to a live location, or is refused", () => {
  it("PATCH: 409 naming the stock; returned elsewhere first, the deactivation goes through", async () => {
    const t = await createTenant();
    const s = await strandedHolder(t, "Ada");
    const off = await api<ErrorBody>(t, `/people/${s.person.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(off.status, JSON.stringify(off.body)).toBe(409);
    expect(off.body).toEqual(refusal(s.person.id, s.issueId, s.gone));
    expect((await api<{ status: string }>(t, `/people/${s.person.id}`)).body.status).toBe("active");

    const shelf = await newLocation(t, "Shelf");
    const back = await move(t, s.headset.id, "return", { issueId: s.issueId, locationId: shelf });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    const again = await api(t, `/people/${s.person.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(again.status).toBe(200);
  });

  it("people bulk: that person alone gets the 409; the others are deactivated", async () => {
    const t = await createTenant();
    const s = await strandedHolder(t, "Ada");
    const bob = await seedPerson(t, { name: "Bob" });
    const res = await api<{ items: { id: string; ok: boolean; status: number; error?: ErrorBody }[] }>(
      t,
      "/people/bulk",
      { body: { action: "deactivate", ids: [s.person.id, bob.id] } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items[0]).toMatchObject({ id: s.person.id, ok: false, status: 409 });
    expect(res.body.items[0]!.error).toEqual(refusal(s.person.id, s.issueId, s.gone));
    expect(res.body.items[1]).toMatchObject({ id: bob.id, ok: true, status: 200 });
  });

  it("people import: that row is refused; the others are written", async () => {
    const t = await createTenant();
    const s = await strandedHolder(t, "Ada");
    await seedPerson(t, { name: "Bob", email: "bob@example.com" });
    const csv = "name,email,status\r\nAda,ada@example.com,deactivated\r\nBob,bob@example.com,deactivated\r\n";
    const posted = await workerFetch(
      new Request(`${t.base}/imports/people`, {
        method: "POST",
        headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
        body: csv,
      }),
    );
    expect(posted.status).toBe(202);
    const jobId = ((await posted.json()) as ImportJob).id;
    await drainImport({ db: await dbOf(t), actor: "usr_test", tenantId: t.id }, jobId);
    const rows = (await api<Page<ImportRow>>(t, `/imports/${jobId}/rows?limit=100`)).body.items;
    expect(rows.map((r) => r.action)).toEqual(["refused", "update"]);
    expect(JSON.stringify(rows[0]!.errors)).toContain("deleted location");
    expect((await api<{ status: string }>(t, `/people/${s.person.id}`)).body.status).toBe("active");
  });
});
