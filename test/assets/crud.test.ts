import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assetTimeline } from "../../src/db/tenant/assets";
import { auditLog } from "../../src/db/tenant/audit";
import type { AuditEntry, InventoryItem, InventoryItemListItem, TimelineEntry } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { assetRow, createAsset, writeCounts } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("inventory items CRUD", () => {
  it("creates with a generated tag and the workspace defaults, with timeline, audit and event", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories/default")).body;
    const loc = (await api<Location>(t, "/locations/default")).body;
    const a = await createAsset(t, {
      serialNumber: "C02XK",
      model: "A2442",
      manufacturer: "Apple",
      purchaseDate: "2025-03-14",
      purchaseCost: 2499.99,
      currency: "EUR",
      warrantyExpiresAt: "2028-03-14",
      notes: "Dev laptop",
    });
    expect(a).toMatchObject({
      id: expect.stringMatching(/^ast_/),
      name: "MacBook Pro 14",
      uniqueTag: expect.stringMatching(/^AST-[0-9A-HJKMNP-TV-Z]{6}$/),
      serialNumber: "C02XK",
      model: "A2442",
      manufacturer: "Apple",
      categoryId: cat.id,
      locationId: loc.id,
      status: "available",
      assigneeId: null,
      assignedAt: null,
      dueBackAt: null,
      reservedUntil: null,
      reservationReason: null,
      purchaseDate: "2025-03-14",
      purchaseCost: 2499.99,
      currency: "EUR",
      warrantyExpiresAt: "2028-03-14",
      notes: "Dev laptop",
      customFields: {},
      imageKey: null,
      lastVerifiedAt: null,
    });
    expect((await assetRow(t, a.id))?.purchaseCostMinor).toBe(249999);
    expect((await api(t, `/inventory-items/${a.id}`)).body).toEqual(a);

    const db = await dbOf(t);
    const timeline = await db.select().from(assetTimeline).where(eq(assetTimeline.assetId, a.id)).all();
    expect(timeline.map((r) => r.type)).toEqual(["CREATED"]);
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, a.id), eq(auditLog.action, "create")))
      .all();
    expect(audit.find((r) => r.field === "name")).toMatchObject({ oldValue: null, newValue: "MacBook Pro 14" });
    expect(audit.find((r) => r.field === "purchaseCost")).toMatchObject({ newValue: 2499.99 });
    const events = await outboxRows(t, { subjectId: a.id });
    expect(events.map((e) => e.type)).toEqual(["asset.created"]);
    expect(events[0]!.payload).toMatchObject({ id: a.id, uniqueTag: a.uniqueTag });
  });

  it("keeps currency precision: JPY has no decimals, KWD three", async () => {
    const t = await createTenant();
    expect((await createAsset(t, { purchaseCost: 150000, currency: "JPY" })).purchaseCost).toBe(150000);
    expect((await createAsset(t, { purchaseCost: 12.345, currency: "KWD" })).purchaseCost).toBe(12.345);
    const res = await api<ErrorBody>(t, "/inventory-items", {
      body: { name: "x", purchaseCost: 1.5, currency: "JPY" },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: "body.purchaseCost", message: expect.stringContaining("JPY") }]);
  });

  it("unique tags are unique among live assets, case-insensitively, and looked up the same way", async () => {
    const t = await createTenant();
    const a = await createAsset(t, { uniqueTag: "LAP-001" });
    const before = await writeCounts(t);
    const dup = await api<ErrorBody>(t, "/inventory-items", { body: { name: "Other", uniqueTag: "lap-001" } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    expect(await writeCounts(t)).toEqual(before);

    const byTag = await api<InventoryItem>(t, "/inventory-items/unique-tag/Lap-001");
    expect(byTag.status).toBe(200);
    expect(byTag.body.id).toBe(a.id);
    expect((await api(t, "/inventory-items/unique-tag/NOPE-1")).status).toBe(404);

    const b = await createAsset(t, { uniqueTag: "LAP-002" });
    const clash = await api(t, `/inventory-items/${b.id}`, { method: "PATCH", body: { uniqueTag: "LAP-001" } });
    expect(clash.status).toBe(409);
    expect((await assetRow(t, b.id))?.uniqueTag).toBe("LAP-002");
  });

  it("updates fields with a field-level audit, a MOVED timeline entry on location change and asset.updated", async () => {
    const t = await createTenant();
    const a = await createAsset(t, { purchaseCost: 10, currency: "USD" });
    const loc = await api<Location>(t, "/locations", { body: { name: "Warehouse" } });
    expect(loc.status).toBe(201);
    const res = await api<InventoryItem>(t, `/inventory-items/${a.id}`, {
      method: "PATCH",
      body: { name: "MBP 14", locationId: loc.body.id, purchaseCost: 12.5, notes: "" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "MBP 14",
      locationId: loc.body.id,
      purchaseCost: 12.5,
      currency: "USD",
      notes: null,
    });
    expect(res.body.updatedAt > a.updatedAt).toBe(true);

    const audit = await api<Page<AuditEntry>>(t, `/inventory-items/${a.id}/audit`);
    const updates = audit.body.items.filter((e) => e.action === "update");
    expect(updates.map((e) => e.field).sort()).toEqual(["locationId", "name", "purchaseCost"]);
    expect(updates.find((e) => e.field === "name")).toMatchObject({
      oldValue: "MacBook Pro 14",
      newValue: "MBP 14",
      actor: expect.any(String),
      at: res.body.updatedAt,
    });

    const timeline = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`);
    expect(timeline.body.items.map((e) => e.type)).toEqual(["MOVED", "CREATED"]);
    expect(timeline.body.items[0]!.data).toEqual({ fromLocationId: a.locationId, toLocationId: loc.body.id });
    const updated = await outboxRows(t, { type: "asset.updated" });
    expect(updated).toHaveLength(1);
    expect(updated[0]!.payload).toMatchObject({
      name: "MBP 14",
      changes: expect.arrayContaining(["name", "locationId", "purchaseCost"]),
    });

    // A patch that changes nothing writes nothing.
    const before = await writeCounts(t);
    expect((await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { name: "MBP 14" } })).status).toBe(200);
    expect(await writeCounts(t)).toEqual(before);
    // Status and assignee are not fields of PATCH.
    expect((await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { status: "lost" } })).status).toBe(400);
  });

  it("deletes softly, restores, and refuses a restore whose tag is taken", async () => {
    const t = await createTenant();
    const a = await createAsset(t, { uniqueTag: "TAG-1" });
    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/inventory-items/${a.id}`)).status).toBe(404);
    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await assetRow(t, a.id))?.deletedAt).toEqual(expect.any(String));
    expect((await api<Page<InventoryItemListItem>>(t, "/inventory-items")).body.items).toEqual([]);

    const restored = await api(t, `/inventory-items/${a.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: a.id, uniqueTag: "TAG-1", status: "available" });
    expect((await api(t, `/inventory-items/${a.id}/restore`, { method: "POST" })).status).toBe(404);

    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(204);
    await createAsset(t, { uniqueTag: "tag-1" });
    const refused = await api<ErrorBody>(t, `/inventory-items/${a.id}/restore`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("TAG-1");
    expect((await assetRow(t, a.id))?.deletedAt).toEqual(expect.any(String));
    expect((await outboxRows(t, { subjectId: a.id })).map((e) => e.type)).toEqual([
      "asset.created",
      "asset.deleted",
      "asset.restored",
      "asset.deleted",
    ]);
  });

  it("refuses to restore an asset whose category was deleted meanwhile (no dangling reference)", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories", { body: { name: "Temporary" } })).body.id;
    const a = await createAsset(t, { categoryId: cat });
    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/categories/${cat}`, { method: "DELETE" })).status).toBe(204);
    const res = await api<ErrorBody>(t, `/inventory-items/${a.id}/restore`, { method: "POST" });
    expect(res.status).toBe(409);
    expect(res.body.details).toMatchObject({ categoryId: cat });
    expect((await api(t, `/categories/${cat}/restore`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/inventory-items/${a.id}/restore`, { method: "POST" })).status).toBe(200);
  });

  it("answers 404 for unknown ids and 401 without credentials", async () => {
    const t = await createTenant();
    expect((await api(t, "/inventory-items/ast_nope")).status).toBe(404);
    expect((await api(t, "/inventory-items/ast_nope", { method: "PATCH", body: { name: "x" } })).status).toBe(404);
    expect((await api(t, "/inventory-items/ast_nope/timeline")).status).toBe(404);
    expect((await api(t, "/inventory-items", { auth: null })).status).toBe(401);
    // Another workspace's asset is invisible.
    const other = await createTenant();
    const a = await createAsset(other);
    expect((await api(t, `/inventory-items/${a.id}`)).status).toBe(404);
  });
});
