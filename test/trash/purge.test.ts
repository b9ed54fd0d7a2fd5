import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets, assignments } from "../../src/db/tenant/assets";
import { auditLog } from "../../src/db/tenant/audit";
import { categories, locations } from "../../src/db/tenant/catalog";
import { customFields, layouts } from "../../src/db/tenant/custom-fields";
import { maintenanceReminders } from "../../src/db/tenant/maintenance";
import { people } from "../../src/db/tenant/people";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Layout } from "../../src/modules/layouts";
import type { Location } from "../../src/modules/locations";
import type { TrashEntry, TrashResults } from "../../src/modules/trash";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { createUser } from "../harness/principals";
import {
  assetHistoryCounts,
  insertAsset,
  insertAssetHistory,
  insertAssetUpkeep,
  insertAudit,
  insertPerson,
  insertSessionSchedule,
  trashed,
} from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const purge = (t: TestTenant, items: unknown, auth?: { jwt: string }) =>
  api<TrashResults>(t, "/trash/permanent-delete", { body: { items }, ...(auth ? { auth } : {}) });

async function createAndDelete(t: TestTenant, path: string, body: unknown): Promise<string> {
  const res = await api<{ id: string }>(t, path, { body }); // whatever resource was created: only its id matters here
  expect(res.status).toBe(201);
  expect((await api(t, `${path}/${res.body.id}`, { method: "DELETE" })).status).toBe(204);
  return res.body.id;
}

describe("POST /trash/permanent-delete", () => {
  it("removes a trashed asset with its history and image, and nothing of other assets", async () => {
    const t = await createTenant();
    const holder = await insertPerson(t);
    const imageKey = `tenants/${t.id}/assets/photo.png`;
    const asset = await insertAsset(t, { imageKey, ...trashed() });
    const other = await insertAsset(t);
    await insertAssetHistory(t, asset.id, holder);
    await insertAssetHistory(t, other.id, holder);
    await insertAssetUpkeep(t, asset.id);
    await insertAssetUpkeep(t, other.id);
    const db = await dbOf(t);
    const before = await db.select().from(maintenanceReminders).all();
    expect(before).toHaveLength(2);
    await env.FILES.put(imageKey, new Uint8Array([1, 2, 3]));

    const res = await purge(t, [{ type: "asset", id: asset.id }]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ type: "asset", id: asset.id, status: "deleted" }]);

    expect(await db.select().from(assets).where(eq(assets.id, asset.id)).get()).toBeUndefined();
    const none = {
      assignments: 0,
      statusEvents: 0,
      timeline: 0,
      audit: 0,
      health: 0,
      lastAudit: 0,
      schedules: 0,
      reminders: 0,
      logs: 0,
    };
    expect(await assetHistoryCounts(t, asset.id)).toEqual(none);
    expect(await assetHistoryCounts(t, other.id)).toEqual(Object.fromEntries(Object.keys(none).map((k) => [k, 1])));
    // The purged asset's reminder is gone, not just unreachable through its schedule.
    expect(await db.select().from(maintenanceReminders).all()).toHaveLength(1);
    expect(await env.FILES.get(imageKey)).toBeNull();
    const [event] = await outboxRows(t, { type: "asset.purged", subjectId: asset.id });
    expect(event?.payload).toMatchObject({ id: asset.id, type: "asset", name: asset.name, deletedAt: asset.deletedAt });
    expect((await api<Page<TrashEntry>>(t, "/trash")).body.items).toEqual([]);
  });

  it("refuses live rows, unknown ids and other workspaces' ids, per item", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const live = await insertAsset(t);
    const theirs = await insertAsset(other, trashed());
    const mine = await insertPerson(t, trashed());

    const res = await purge(t, [
      { type: "asset", id: live.id },
      { type: "asset", id: theirs.id },
      { type: "person", id: "per_unknown" },
      { type: "person", id: mine.id },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        type: "asset",
        id: live.id,
        status: "failed",
        error: { code: "conflict", message: expect.stringContaining("move it to the trash first") },
      },
      { type: "asset", id: theirs.id, status: "failed", error: { code: "not_found", message: expect.any(String) } },
      {
        type: "person",
        id: "per_unknown",
        status: "failed",
        error: { code: "not_found", message: expect.any(String) },
      },
      { type: "person", id: mine.id, status: "deleted" },
    ]);
    expect((await (await dbOf(t)).select().from(assets).where(eq(assets.id, live.id)).get())?.deletedAt).toBeNull();
    expect(await (await dbOf(other)).select().from(assets).where(eq(assets.id, theirs.id)).get()).toBeDefined();
    expect(await outboxRows(t, { type: "asset.purged" })).toEqual([]);
  });

  it("removes a person's audit rows but keeps their assignment rows in the assets' history", async () => {
    const t = await createTenant();
    const person = await insertPerson(t, trashed());
    const asset = await insertAsset(t);
    await insertAssetHistory(t, asset.id, person);
    const db = await dbOf(t);
    await insertAudit(db, "person", person.id).run();

    const assignee = await insertPerson(t, trashed());
    await insertAsset(t, { status: "assigned", assigneeId: assignee.id, ...trashed() });

    const res = await purge(t, [
      { type: "person", id: person.id },
      { type: "person", id: assignee.id },
    ]);
    expect(res.body.results[0]).toEqual({ type: "person", id: person.id, status: "deleted" });
    expect(res.body.results[1]).toEqual({
      type: "person",
      id: assignee.id,
      status: "failed",
      error: { code: "conflict", message: expect.stringContaining("1 asset(s) still assigned") },
    });
    expect(await db.select().from(people).where(eq(people.id, person.id)).get()).toBeUndefined();
    expect(await db.select().from(auditLog).where(eq(auditLog.entityId, person.id)).all()).toEqual([]);
    expect(await db.select().from(assignments).where(eq(assignments.personId, person.id)).all()).toEqual([
      expect.objectContaining({ personName: person.name }),
    ]);
    expect(await outboxRows(t, { type: "person.purged", subjectId: person.id })).toHaveLength(1);
  });

  it("refuses a category or location still referenced, even by trashed rows, until those are purged first", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const category = await createAndDelete(t, "/categories", { name: "Projectors" });
    const unused = await createAndDelete(t, "/categories", { name: "Unused" });
    const scheduled = await createAndDelete(t, "/categories", { name: "Scheduled" });
    await insertSessionSchedule(t, { categoryId: scheduled });
    const location = await createAndDelete(t, "/locations", { name: "Annex" });
    const defaults = await insertAsset(t); // for the default category/location ids
    const asset = await insertAsset(t, { categoryId: category, locationId: defaults.locationId, ...trashed() });
    const resident = await insertPerson(t, { locationId: location, ...trashed() });

    const first = await purge(t, [
      { type: "category", id: category },
      { type: "location", id: location },
      { type: "category", id: unused },
      { type: "category", id: scheduled },
    ]);
    expect(first.body.results.map((r) => [r.status, r.error?.code])).toEqual([
      ["failed", "conflict"],
      ["failed", "conflict"],
      ["deleted", undefined],
      ["failed", "conflict"],
    ]);
    expect(first.body.results[3]!.error!.message).toContain("1 recurring session schedule(s)");
    expect(first.body.results[0]!.error!.message).toContain("1 asset(s), live or in the trash");
    expect(first.body.results[1]!.error!.message).toContain("1 person(s)");
    expect(await db.select().from(categories).where(eq(categories.id, category)).get()).toBeDefined();

    // In request order: the asset and the person go first, then nothing references the category or location.
    const second = await purge(t, [
      { type: "asset", id: asset.id },
      { type: "category", id: category },
      { type: "person", id: resident.id },
      { type: "location", id: location },
    ]);
    expect(second.body.results.map((r) => r.status)).toEqual(["deleted", "deleted", "deleted", "deleted"]);
    expect(await db.select().from(categories).where(eq(categories.id, category)).get()).toBeUndefined();
    expect(await db.select().from(locations).where(eq(locations.id, location)).get()).toBeUndefined();
    expect(await outboxRows(t, { type: "location.purged", subjectId: location })).toHaveLength(1);
  });

  it("refuses a location with child locations, trashed or not", async () => {
    const t = await createTenant();
    const parent = await api<Location>(t, "/locations", { body: { name: "Campus" } });
    const child = await api<Location>(t, "/locations", { body: { name: "Building 1", parentId: parent.body.id } });
    expect((await api(t, `/locations/${child.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/locations/${parent.body.id}`, { method: "DELETE" })).status).toBe(204);
    const res = await purge(t, [
      { type: "location", id: parent.body.id },
      { type: "location", id: child.body.id },
    ]);
    expect(res.body.results[0]!.error).toEqual({
      code: "conflict",
      message: expect.stringContaining("1 location(s), live or in the trash, nested under it"),
    });
    expect(res.body.results[1]!.status).toBe("deleted");
    expect((await purge(t, [{ type: "location", id: parent.body.id }])).body.results[0]!.status).toBe("deleted");
  });

  it("removes a custom field's values and layout entries, unless another definition shares its key", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const mk = (key: string) =>
      api<CustomField>(t, "/custom-fields", { body: { entity: "asset", key, label: key, type: "text" } });
    const color = (await mk("color")).body.id;
    const size = (await mk("size")).body.id;
    const layout = await api<Layout>(t, "/layouts", {
      body: {
        entity: "asset",
        name: "Main",
        sections: [
          { title: "A", fields: [{ key: "name" }, { key: "color", required: true }, { key: "size" }] },
          { title: "B", fields: [{ key: "uniqueTag" }] },
        ],
      },
    });
    expect(layout.status, JSON.stringify(layout.body)).toBe(201);
    const other = await api<Layout>(t, "/layouts", {
      body: { entity: "asset", name: "Colors", sections: [{ title: "C", fields: [{ key: "color" }] }] },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const a1 = await insertAsset(t, { customFields: { color: "red", other: 1 } });
    const a2 = await insertAsset(t, { customFields: { color: "blue" }, ...trashed() });
    for (const id of [color, size])
      expect((await api(t, `/custom-fields/${id}`, { method: "DELETE" })).status).toBe(204);
    // A new live field re-uses `size` (allowed: no values were stored under it); the `size` layout
    // entries and the values stored from now on are the new field's, and purging the old one keeps them.
    const reused = await mk("size");
    expect(reused.status, JSON.stringify(reused.body)).toBe(201);
    const a3 = await insertAsset(t, { customFields: { size: "S" } });

    const res = await purge(t, [
      { type: "custom_field", id: color },
      { type: "custom_field", id: size },
    ]);
    expect(res.body.results.map((r) => r.status)).toEqual(["deleted", "deleted"]);

    const values = async (id: string) => (await db.select().from(assets).where(eq(assets.id, id)).get())?.customFields;
    expect(await values(a1.id)).toEqual({ other: 1 });
    expect(await values(a2.id)).toEqual({});
    expect(await values(a3.id)).toEqual({ size: "S" });
    const stored = await db.select().from(layouts).where(eq(layouts.id, layout.body.id)).get();
    expect(stored?.sections).toEqual([
      { title: "A", fields: [{ key: "name" }, { key: "size" }] },
      { title: "B", fields: [{ key: "uniqueTag" }] },
    ]);
    expect((await db.select().from(layouts).where(eq(layouts.id, other.body.id)).get())?.sections).toEqual([
      { title: "C", fields: [] },
    ]);
    expect(await db.select().from(customFields).where(eq(customFields.id, color)).get()).toBeUndefined();
    expect(await outboxRows(t, { type: "custom_field.purged", subjectId: color })).toHaveLength(1);
  });

  it("is for owners and admins (and API keys); members get 403", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t, trashed());
    const member = await createUser(t, "member");
    expect((await purge(t, [{ type: "asset", id: asset.id }], { jwt: member.jwt })).status).toBe(403);
    const admin = await createUser(t, "admin");
    expect((await purge(t, [{ type: "asset", id: asset.id }], { jwt: admin.jwt })).body.results[0]!.status).toBe(
      "deleted",
    );
    expect((await api(t, "/trash/permanent-delete", { body: { items: [] } })).status).toBe(400);
  });
});
