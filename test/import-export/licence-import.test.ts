import { describe, expect, it } from "vitest";
import type { ServiceCtx } from "../../src/http/service-context";
import type { ImportDryRun, ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport } from "../../src/modules/import-export/import/jobs";
import type { LicenceLot, LicenceProduct, LicenceSeat } from "../../src/modules/licences";
import type { Page } from "../../src/platform/pagination";
import { workerFetch } from "../harness/contract";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { outboxRows } from "../harness/outbox";
import { insertAsset, seedPerson } from "../harness/people";
import { userJwt } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

async function postCsv<T>(t: TestTenant, path: string, csv: string) {
  const res = await workerFetch(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
      body: csv,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, text };
}

const ctxOf = async (t: TestTenant): Promise<ServiceCtx> => ({ db: await dbOf(t), actor: "usr_test", tenantId: t.id });

/** Runs a real import to its end and answers the job and its rows. */
async function runImport(t: TestTenant, path: string, csv: string) {
  const res = await postCsv<ImportJob>(t, path, csv);
  expect(res.status, res.text).toBe(202);
  await drainImport(await ctxOf(t), res.body.id);
  const job = (await api<ImportJob>(t, `/imports/${res.body.id}`)).body;
  const rows = (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?limit=100`)).body.items;
  return { job, rows, text: res.text };
}

const csv = (...lines: string[]) => lines.join("\r\n");

describe("CSV import of software products, lots and seats", () => {
  it("products: a dry run says what each row would do and writes nothing; the real run creates and updates by name", async () => {
    const t = await createTenant();
    const office = await newProduct(t, { name: "Office", vendor: "Acme" });
    const file = csv(
      "id,name,vendor,onHolderLeaves,seats,createdAt",
      `${office.id},office,Acme Corp,hold,5,2026-01-01`, // update (name case-insensitive; read-only columns ignored)
      ",Design Suite,Pixel,,,", // create
      ",Design suite,Other,,,", // refused: the same name as row 2
      ",Chat,,sometimes,,", // refused: onHolderLeaves
      ",,Nameless,,,", // refused: name required
    );
    const before = (await outboxRows(t)).length;
    const dry = await postCsv<ImportDryRun>(t, "/imports/licence-products?dryRun=true", file);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      entity: "licence_product",
      total: 5,
      create: 1,
      update: 1,
      refused: 3,
    });
    expect(dry.body.ignoredColumns).toEqual(["id", "seats", "createdAt"]);
    expect(dry.body.rows.map((r) => [r.row, r.action, r.id])).toEqual([
      [1, "update", office.id],
      [2, "create", null],
      [3, "refused", null],
      [4, "refused", null],
      [5, "refused", null],
    ]);
    expect(dry.body.rows[2]!.errors).toEqual([{ path: "name", message: "the same name as row 2" }]);
    expect(dry.body.rows[3]!.errors[0]!.path).toBe("onHolderLeaves");
    expect(dry.body.rows[4]!.errors[0]).toMatchObject({ path: "name" });
    expect((await outboxRows(t)).length).toBe(before);
    expect((await api<Page<LicenceProduct>>(t, "/licence-products")).body.items).toHaveLength(1);

    const { job, rows } = await runImport(t, "/imports/licence-products", file);
    expect(job).toMatchObject({ entity: "licence_product", status: "completed", created: 1, updated: 1, refused: 3 });
    expect((await api<LicenceProduct>(t, `/licence-products/${office.id}`)).body).toMatchObject({
      vendor: "Acme Corp",
      onHolderLeaves: "hold",
    });
    const created = rows.find((r) => r.row === 2)!;
    expect((await api<LicenceProduct>(t, `/licence-products/${created.id}`)).body.name).toBe("Design Suite");
    expect((await outboxRows(t, { type: "licence_product.created" })).map((e) => e.subjectId)).toContain(created.id);

    // The product export re-imports as no change.
    const exported = await api<string>(t, "/exports/licence-products");
    const again = await postCsv<ImportDryRun>(
      t,
      "/imports/licence-products?dryRun=true",
      exported.body.replace(/^\uFEFF/, ""),
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ total: 2, update: 2, refused: 0 });
  });

  it("lots: created under a product by id or name, updated by id; the rules of the lot routes refuse rows by line", async () => {
    const t = await createTenant();
    const office = await newProduct(t, { name: "Office" });
    const lot = await newLot(t, office.id, { seats: 2 });
    const file = csv(
      "id,productId,product,kind,seats,cost,currency,endDate,renewal,autoRenew,keyCount",
      `,${office.id},,per_user,10,1200,EUR,2027-01-31,annual,yes,0`, // create by product id
      ",,office,unlimited,,50,USD,,,,", // create by product name
      `${lot.id},,,,5,,,,,,3`, // update: seats 2 -> 5
      `${lot.id},,,per_device,,,,,,,`, // refused: kind cannot change (and the same id twice is allowed: a second update)
      ",,office,per_user,,,,,,,", // refused: seats required for per_user
      ",,Nope,per_user,3,,,,,,", // refused: no product
      ",,office,per_user,3,10,,,,,", // refused: currency required with a cost
      ",,office,per_user,3,,,,monthly,,", // refused: endDate required when the term renews
    );
    const dry = await postCsv<ImportDryRun>(t, "/imports/licence-lots?dryRun=true", file);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.rows.map((r) => r.action)).toEqual([
      "create",
      "create",
      "update",
      "refused",
      "refused",
      "refused",
      "refused",
      "refused",
    ]);
    expect(dry.body.rows.slice(3).map((r) => r.errors.map((e) => e.path))).toEqual([
      ["kind"],
      ["seats"],
      ["product"],
      ["currency"],
      ["endDate"],
    ]);
    expect(dry.body.ignoredColumns).toEqual(["keyCount"]);

    const { job, rows } = await runImport(t, "/imports/licence-lots", file);
    expect(job).toMatchObject({ status: "completed", created: 2, updated: 1, refused: 5 });
    expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body.seats).toBe(5);
    const annual = (await api<LicenceLot>(t, `/licence-lots/${rows[0]!.id}`)).body;
    expect(annual).toMatchObject({
      productId: office.id,
      kind: "per_user",
      seats: 10,
      cost: 1200,
      currency: "EUR",
      autoRenew: true,
    });
    const unlimited = (await api<LicenceLot>(t, `/licence-lots/${rows[1]!.id}`)).body;
    expect(unlimited).toMatchObject({ kind: "unlimited", seats: null, cost: 50, currency: "USD" });
  });

  it("lot keys are sealed before the job is stored: never in an answer, a stored row or an event; admins read them; not added twice", async () => {
    const t = await createTenant();
    await newProduct(t, { name: "Office" });
    const planted = `PLANTED-${crypto.randomUUID()}`;
    const file = csv("product,kind,seats,keys", `Office,per_user,3,${planted}; ${planted}-B`);
    const dry = await postCsv<ImportDryRun>(t, "/imports/licence-lots?dryRun=true", file);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.text).not.toContain(planted);
    const { job, rows, text } = await runImport(t, "/imports/licence-lots", file);
    expect(job.created).toBe(1);
    expect(text).not.toContain(planted);
    const lotId = rows[0]!.id!;
    expect((await api<LicenceLot>(t, `/licence-lots/${lotId}`)).body.keyCount).toBe(2);
    const revealed = await api<{ items: { key: string }[] }>(t, `/licence-lots/${lotId}/keys`, {
      auth: { jwt: await userJwt(t) },
    });
    expect(revealed.body.items.map((k) => k.key).sort()).toEqual([planted, `${planted}-B`].sort());

    // The same keys again on the lot (by id) add nothing; a new one is added.
    const again = await runImport(t, "/imports/licence-lots", csv("id,keys", `${lotId},${planted};${planted}-C`));
    expect(again.job).toMatchObject({ updated: 1, refused: 0 });
    expect((await api<LicenceLot>(t, `/licence-lots/${lotId}`)).body.keyCount).toBe(3);

    const raw = await rawDbOf(t);
    const tables = await raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .all<{ name: string }>();
    expect(tables.results.map((r) => r.name)).toEqual(
      expect.arrayContaining(["import_rows", "licence_keys", "outbox"]),
    );
    for (const { name } of tables.results) {
      const stored = JSON.stringify((await raw.prepare(`SELECT * FROM "${name}"`).all()).results);
      expect(stored.includes(planted), `table ${name} holds the key in plain text`).toBe(false);
    }
    const rowsPage = await api(t, `/imports/${again.job.id}/rows`);
    expect(JSON.stringify(rowsPage.body)).not.toContain(planted);
  });

  it("seats: by person email or name, asset tag or holder id; never over a lot's seats; an open seat is no change", async () => {
    const t = await createTenant();
    const office = await newProduct(t, { name: "Office" });
    const lot = await newLot(t, office.id, { seats: 2 });
    const devices = await newLot(t, office.id, { kind: "per_device", seats: 5 });
    const ada = await seedPerson(t, { name: "Ada", email: "ada@example.com" });
    const bob = await seedPerson(t, { name: "Bob" });
    await seedPerson(t, { name: "Cy" });
    await seedPerson(t, { name: "Gone", status: "deactivated" });
    await insertAsset(t, { uniqueTag: "LT-1" });
    const held = (await assign(t, lot.id, { personId: ada.id })).body;
    const file = csv(
      "lotId,holderKind,holderId,holder,person,asset",
      `${lot.id},person,${ada.id},Ada,,`, // no change: Ada holds a seat of the lot
      `${lot.id},,,,bob,`, // create: Bob by name (the lot's last seat)
      `${lot.id},,,,Cy,`, // refused: the lot is full after row 2
      `${devices.id},,,,,lt-1`, // create: the laptop by tag
      `${devices.id},,,,Bob,`, // refused: per_device takes assets
      `${lot.id},,,,gone,`, // refused: deactivated
      `${lot.id},,,,,LT-1`, // refused: per_user takes people
      `lot_01jd3k4m5n6p7q8r9s0t1v2w3x,,,,ada@example.com,`, // refused: unknown lot
      `${devices.id},,,,,lt-1`, // refused: the same lot and holder as row 4
    );
    const dry = await postCsv<ImportDryRun>(t, "/imports/licence-seats?dryRun=true", file);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.rows.map((r) => r.action)).toEqual([
      "update",
      "create",
      "refused",
      "create",
      "refused",
      "refused",
      "refused",
      "refused",
      "refused",
    ]);
    expect(dry.body.rows[0]!.id).toBe(held.id);
    expect(dry.body.rows[2]!.errors[0]!.message).toMatch(/^row 3: no free seat in lot lot_/);
    expect(dry.body.rows[4]!.errors[0]!.message).toContain("per_device lot's seats go to assets");
    expect(dry.body.rows[5]!.errors[0]!.message).toContain("deactivated");
    expect(dry.body.rows[7]!.errors[0]).toMatchObject({ path: "lotId" });
    expect(dry.body.rows[8]!.errors[0]!.message).toBe("the same lot and holder as row 4");

    const { job, rows } = await runImport(t, "/imports/licence-seats", file);
    expect(job).toMatchObject({ status: "completed", created: 2, updated: 1, refused: 6 });
    expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body.assigned).toBe(2);
    const bobs = (await api<Page<LicenceSeat>>(t, `/people/${bob.id}/licence-seats`)).body.items;
    expect(bobs.map((s) => s.id)).toEqual([rows[1]!.id]);
    expect((await outboxRows(t, { type: "licence_seat.assigned" })).length).toBe(3);

    // The seat export re-imports as no change.
    const exported = await api<string>(t, "/exports/licence-seats");
    const again = await postCsv<ImportDryRun>(
      t,
      "/imports/licence-seats?dryRun=true",
      exported.body.replace(/^\uFEFF/, ""),
    );
    expect(again.body).toMatchObject({ total: 3, update: 3, create: 0, refused: 0 });
  });

  it("refuses an unknown column and a file without its match column (400)", async () => {
    const t = await createTenant();
    const unknown = await postCsv<{ message: string }>(
      t,
      "/imports/licence-products?dryRun=true",
      "name,colour\r\nX,red",
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("'colour'");
    const noLot = await postCsv<{ message: string }>(t, "/imports/licence-seats?dryRun=true", "person\r\nAda");
    expect(noLot.status).toBe(400);
    expect(noLot.body.message).toContain("'lotId'");
  });
});
