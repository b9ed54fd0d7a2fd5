import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceCtx } from "../../src/http/service-context";
import type { InventoryItem } from "../../src/modules/assets";
import type { ImportDryRun, ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport, PER_ROW_CHUNK, processChunk } from "../../src/modules/import-export/import/jobs";
import type { Page } from "../../src/platform/pagination";
import { workerFetch } from "../harness/contract";
import { insertAsset, insertPerson } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** Status, holders and requestable are imported through the lifecycle rules, not dropped. */

async function postCsv<T>(t: TestTenant, path: string, csv: string) {
  const res = await workerFetch(
    new Request(`${t.base}${path}`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
      body: csv,
    }),
  );
  return { status: res.status, body: (await res.json()) as T };
}

async function exportCsv(t: TestTenant) {
  const res = await workerFetch(
    new Request(`${t.base}/exports/inventory-items`, { headers: { authorization: `ApiKey ${t.apiKey}` } }),
  );
  expect(res.status).toBe(200);
  return (await res.text()).replace(/^\uFEFF/, "");
}

const ctxOf = async (t: TestTenant): Promise<ServiceCtx> => ({ db: await dbOf(t), actor: "usr_test", tenantId: t.id });

async function runImport(t: TestTenant, csv: string) {
  const res = await postCsv<ImportJob>(t, "/imports/inventory-items", csv);
  expect(res.status).toBe(202);
  await drainImport(await ctxOf(t), res.body.id);
  const job = (await api<ImportJob>(t, `/imports/${res.body.id}`)).body;
  const rows = (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows?limit=100`)).body.items;
  return { job, rows };
}

const item = async (t: TestTenant, id: string) => (await api<InventoryItem>(t, `/inventory-items/${id}`)).body;

async function count(t: TestTenant, q: string) {
  return (await (await dbOf(t)).get<{ n: number }>(sql.raw(q)))!.n;
}

/** A workspace with people (one inactive, two sharing a name), a second location and a parent asset. */
async function world(t: TestTenant) {
  const ada = await insertPerson(t, { name: "Ada Lovelace", email: "ada@example.com" });
  const bob = await insertPerson(t, { name: "Bob Stone", email: "bob@example.com" });
  await insertPerson(t, { name: "Sam Twin", email: "sam1@example.com" });
  await insertPerson(t, { name: "Sam Twin", email: "sam2@example.com" });
  const gone = await insertPerson(t, { name: "Gone Person", email: "gone@example.com", status: "deactivated" });
  const room = await api<{ id: string }>(t, "/locations", { body: { name: "Room 4.12" } });
  expect(room.status).toBe(201);
  const laptop = await insertAsset(t, { name: "Laptop", uniqueTag: "LAP-1" });
  return { ada, bob, gone, roomId: room.body.id, laptop };
}

describe("asset import: status, holders, requestable", () => {
  it("imports every column in a dry run and a real run; reports ignored columns; refused rows say 'refused'", async () => {
    const t = await createTenant();
    const w = await world(t);
    const retired = await insertAsset(t, { name: "Old", uniqueTag: "OLD-1", status: "retired" });
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const csv = [
      "name,uniqueTag,status,statusReason,assignee,holderKind,holderId,holder,dueBackAt,requestable,createdAt,healthScore",
      `Mouse,M-1,,,ada@example.com,,,,${due},yes,2020-01-01,90`, // checkout to Ada by email, due back
      "Monitor,M-2,assigned,,Bob Stone,,,,,no,,", // checkout to Bob by name
      "Projector,M-3,,,,location,,room 4.12,,,,", // checkout to a location by name
      "Dock,M-4,,,,asset,,lap-1,,,,", // checkout to an asset by its tag
      "Broken,M-5,maintenance,,,,,,,,,", // created, then available -> maintenance
      "Scrap,M-6,retired,end of life,,,,,,true,,", // retired with its reason
      "Old,OLD-1,maintenance,,,,,,,,,", // refused: retired -> maintenance is not a move
      "Twin,M-7,,,Sam Twin,,,,,,,", // refused: two people named so
      "Ghost,M-8,,,gone@example.com,,,,,,,", // refused: inactive person
      "Mixed,M-9,lost,,ada@example.com,,,,,,,", // refused: a holder means assigned
      "Lonely,M-10,assigned,,,,,,,,,", // refused: assigned without a holder
      "Weird,M-11,flying,,,,,,,,,", // refused: not a status
      "Late,M-12,,,ada@example.com,,,,2001-01-01,,,", // refused: due back in the past
      "Bad flag,M-13,,,,,,,,maybe,,", // refused: requestable is yes/no
    ].join("\r\n");

    const dry = await postCsv<ImportDryRun>(t, "/imports/inventory-items?dryRun=true", csv);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ total: 14, create: 6, update: 0, refused: 8 });
    expect(dry.body.ignoredColumns).toEqual(["createdAt", "healthScore"]);
    const d = dry.body.rows;
    expect(d.slice(0, 6).map((r) => r.action)).toEqual(["create", "create", "create", "create", "create", "create"]);
    expect(d.slice(6).every((r) => r.action === "refused")).toBe(true);
    expect(d[6]!.errors).toEqual([
      {
        path: "status",
        message:
          "row 7: cannot move the asset from 'retired' to 'maintenance' (from 'retired' it can move to available)",
      },
    ]);
    expect(d[7]!.errors[0]).toEqual({
      path: "assignee",
      message: "row 8: 2 live persons are named 'Sam Twin'; give the id or the email",
    });
    expect(d[8]!.errors[0]!.message).toBe("row 9: Gone Person is deactivated; only active people can hold assets");
    expect(d[9]!.errors[0]).toEqual({
      path: "status",
      message: "row 10: a holder (Ada Lovelace) means status 'assigned', not 'lost'",
    });
    expect(d[10]!.errors[0]!.message).toBe(
      "row 11: status 'assigned' needs a holder: an assignee or holderKind/holderId column",
    );
    expect(d[11]!.errors[0]!.message).toContain("row 12: unknown status 'flying'");
    expect(d[12]!.errors[0]).toMatchObject({
      path: "dueBackAt",
      message: expect.stringContaining("row 13: must be in the future"),
    });
    expect(d[13]!.errors[0]!.path).toBe("requestable");
    expect(await count(t, "SELECT count(*) AS n FROM assets WHERE unique_tag LIKE 'M-%'")).toBe(0);

    const { job, rows } = await runImport(t, csv);
    expect(job).toMatchObject({
      status: "completed",
      created: 6,
      refused: 8,
      ignoredColumns: ["createdAt", "healthScore"],
    });
    expect(rows.map((r) => r.action)).toEqual([...Array(6).fill("create"), ...Array(8).fill("refused")]);
    const [mouse, monitor, projector, dock, broken, scrap] = (await Promise.all(
      rows.slice(0, 6).map((r) => item(t, r.id!)),
    )) as [InventoryItem, InventoryItem, InventoryItem, InventoryItem, InventoryItem, InventoryItem];
    expect(mouse).toMatchObject({ status: "assigned", assigneeId: w.ada.id, requestable: true, dueBackAt: due });
    expect(monitor).toMatchObject({ status: "assigned", holder: { kind: "person", id: w.bob.id }, requestable: false });
    expect(projector).toMatchObject({
      status: "assigned",
      holder: { kind: "location", id: w.roomId },
      locationId: w.roomId,
    });
    expect(dock).toMatchObject({ status: "assigned", holder: { kind: "asset", id: w.laptop.id, name: "Laptop" } });
    expect(broken.status).toBe("maintenance");
    expect(scrap).toMatchObject({ status: "retired", requestable: true });
    expect((await item(t, retired.id)).status).toBe("retired");
    // Through the API's own verbs: an assignment row per checkout, a status event per move (with its reason).
    expect(
      await count(
        t,
        `SELECT count(*) AS n FROM assignments WHERE asset_id IN ('${mouse.id}','${monitor.id}','${projector.id}','${dock.id}')`,
      ),
    ).toBe(4);
    expect(
      await count(
        t,
        `SELECT count(*) AS n FROM asset_status_events WHERE asset_id = '${scrap.id}' AND to_status = 'retired' AND reason = 'end of life'`,
      ),
    ).toBe(1);
  });

  it("an export re-imports as no change, and restores the statuses and holders changed since", async () => {
    const t = await createTenant();
    const w = await world(t);
    const a = await insertAsset(t, { name: "A", uniqueTag: "RT-A" });
    const b = await insertAsset(t, { name: "B", uniqueTag: "RT-B" });
    const c = await insertAsset(t, { name: "C", uniqueTag: "RT-C" });
    const d = await insertAsset(t, { name: "D", uniqueTag: "RT-D", requestable: true });
    expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: w.ada.id } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${b.id}/checkout`, { body: { locationId: w.roomId } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${c.id}/checkout`, { body: { assetId: w.laptop.id } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${d.id}/status`, { body: { toStatus: "maintenance" } })).status).toBe(200);
    const csv = await exportCsv(t);

    const same = await runImport(t, csv);
    expect(same.job).toMatchObject({ refused: 0, updated: 5 }); // the four and the world's laptop
    expect(same.job.ignoredColumns).toEqual([
      "id",
      "assignedAt",
      "lastVerifiedAt",
      "createdAt",
      "updatedAt",
      "healthScore",
      "healthBadge",
    ]);
    expect(await count(t, "SELECT count(*) AS n FROM assignments")).toBe(3);
    expect(await count(t, "SELECT count(*) AS n FROM asset_status_events")).toBe(4);

    // Undo everything, then import the export: the statuses and holders come back through the verbs.
    for (const id of [a.id, b.id, c.id])
      expect((await api(t, `/inventory-items/${id}/checkin`, { body: {} })).status).toBe(200);
    expect((await api(t, `/inventory-items/${d.id}/status`, { body: { toStatus: "available" } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${d.id}`, { method: "PATCH", body: { requestable: false } })).status).toBe(
      200,
    );
    const back = await runImport(t, csv);
    expect(back.job).toMatchObject({ refused: 0, updated: 5 });
    expect(await item(t, a.id)).toMatchObject({ status: "assigned", holder: { kind: "person", id: w.ada.id } });
    expect(await item(t, b.id)).toMatchObject({ status: "assigned", holder: { kind: "location", id: w.roomId } });
    expect(await item(t, c.id)).toMatchObject({ status: "assigned", holder: { kind: "asset", id: w.laptop.id } });
    expect(await item(t, d.id)).toMatchObject({ status: "maintenance", requestable: true });
  });

  it("an export imported into another workspace finds its holders, categories and locations by name", async () => {
    const [from, to] = [await createTenant(), await createTenant()];
    const w1 = await world(from);
    const w2 = await world(to);
    const a = await insertAsset(from, { name: "Desk phone", uniqueTag: "MV-1" });
    const b = await insertAsset(from, { name: "Beamer", uniqueTag: "MV-2" });
    expect((await api(from, `/inventory-items/${a.id}/checkout`, { body: { personId: w1.ada.id } })).status).toBe(200);
    expect((await api(from, `/inventory-items/${b.id}/checkout`, { body: { locationId: w1.roomId } })).status).toBe(
      200,
    );
    const moved = await runImport(to, await exportCsv(from));
    expect(moved.rows.flatMap((r) => r.errors)).toEqual([]);
    expect(moved.job).toMatchObject({ created: 2, updated: 1, refused: 0 }); // the laptop is there already
    const [phone, beamer] = await Promise.all(
      ["MV-1", "MV-2"].map(async (tag) => (await api<InventoryItem>(to, `/inventory-items/unique-tag/${tag}`)).body),
    );
    expect(phone).toMatchObject({ status: "assigned", holder: { kind: "person", id: w2.ada.id } });
    expect(beamer).toMatchObject({ status: "assigned", holder: { kind: "location", id: w2.roomId } });
  });

  it("refuses an update whose state cannot be reached, naming the row and the holder", async () => {
    const t = await createTenant();
    const w = await world(t);
    const held = await insertAsset(t, { name: "Held", uniqueTag: "H-1" });
    expect((await api(t, `/inventory-items/${held.id}/checkout`, { body: { personId: w.ada.id } })).status).toBe(200);
    const csv = ["uniqueTag,assignee,status", "H-1,bob@example.com,", "h-1,,available", "h-1,ada@example.com,"].join(
      "\r\n",
    );
    const dry = await postCsv<ImportDryRun>(t, "/imports/inventory-items?dryRun=true", csv);
    expect(dry.body.rows[0]!.errors).toEqual([
      {
        path: "holder",
        message: "row 1: the asset is checked out to Ada Lovelace; check it in before checking it out to Bob Stone",
      },
    ]);
    expect(dry.body.rows[1]!.errors).toContainEqual({
      path: "status",
      message: "row 2: the asset is checked out to Ada Lovelace; check it in before moving it to 'available'",
    });
    expect(dry.body.rows[2]!.errors).toContainEqual({ path: "uniqueTag", message: "the same unique tag as row 1" });
    expect(dry.body.ignoredColumns).toEqual([]);
  });

  it("a step refused at write time (checked out meanwhile) refuses its row and says the fields were written", async () => {
    const t = await createTenant();
    const w = await world(t);
    const asset = await insertAsset(t, { name: "Racy", uniqueTag: "R-1" });
    const res = await postCsv<ImportJob>(
      t,
      "/imports/inventory-items",
      "uniqueTag,notes,status\r\nR-1,fresh note,lost",
    );
    expect(res.status).toBe(202);
    // The first chunk ran while answering (the asset is lost). Found again and checked out by another
    // request, then the row is written once more (a retried chunk): its plan no longer holds.
    expect((await api(t, `/inventory-items/${asset.id}/status`, { body: { toStatus: "available" } })).status).toBe(200);
    const db = await dbOf(t);
    await db.run(sql`UPDATE import_jobs SET status = 'running' WHERE id = ${res.body.id}`);
    await db.run(sql`UPDATE import_rows SET status = 'pending' WHERE job_id = ${res.body.id}`);
    expect((await api(t, `/inventory-items/${asset.id}/checkout`, { body: { personId: w.bob.id } })).status).toBe(200);
    await drainImport(await ctxOf(t), res.body.id);
    const rows = (await api<Page<ImportRow>>(t, `/imports/${res.body.id}/rows`)).body.items;
    expect(rows[0]).toMatchObject({ action: "refused", status: "refused", id: asset.id });
    expect(rows[0]!.errors[0]!.message).toMatch(
      /^row 1: the row's fields were updated \(ast_\w+\), but the move to 'lost' was refused: /,
    );
    expect((await item(t, asset.id)).notes).toBe("fresh note");
  });

  it(`a chunk takes at most ${PER_ROW_CHUNK} rows with a lifecycle step, and holder lookups stay under D1's parameter cap`, async () => {
    const t = await createTenant();
    // 150 distinct people named by email: one lookup statement (JSON parameters), not one parameter per key.
    const people = await Promise.all(
      Array.from({ length: 150 }, (_, i) => insertPerson(t, { name: `P ${i}`, email: `p${i}@example.com` })),
    );
    const csv = `name,uniqueTag,assignee\r\n${people.map((p, i) => `Item ${i},C-${i},${p.email}`).join("\r\n")}`;
    const dry = await postCsv<ImportDryRun>(t, "/imports/inventory-items?dryRun=true", csv);
    expect(dry.body).toMatchObject({ total: 150, create: 150, refused: 0 });
    const res = await postCsv<ImportJob>(t, "/imports/inventory-items", csv);
    expect(res.body.processed).toBe(PER_ROW_CHUNK); // the first chunk, written before answering
    expect(await processChunk(await ctxOf(t), res.body.id)).toBe(PER_ROW_CHUNK);
    await drainImport(await ctxOf(t), res.body.id);
    expect((await api<ImportJob>(t, `/imports/${res.body.id}`)).body).toMatchObject({ created: 150, refused: 0 });
    expect(await count(t, "SELECT count(*) AS n FROM assets WHERE status = 'assigned'")).toBe(150);
  });
});
