import { describe, expect, it } from "vitest";
import type {
  AssetStatusEvent,
  Assignment,
  AuditEntry,
  BulkInventoryItemsResult,
  InventoryItemListItem,
  TimelineEntry,
} from "../../src/modules/assets";
import type { PersonAssignment } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createLocation, seedAssets } from "../harness/sessions";
import { api, createTenant, type TestTenant } from "../harness/tenant";

const bulk = (t: TestTenant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api<BulkInventoryItemsResult>(t, "/inventory-items/bulk", { body, headers });
const withoutRequestId = ({ requestId: _r, ...rest }: Record<string, unknown>) => rest;

describe("POST /inventory-items/bulk", () => {
  it("checkout: per-item outcomes in request order, each with the single route's status and envelope", async () => {
    const t = await createTenant();
    const [a, b, c] = await seedAssets(t, 3);
    const ada = await seedPerson(t);
    const grace = await seedPerson(t, { name: "Grace" });
    expect((await api(t, `/inventory-items/${b!.id}/checkout`, { body: { personId: grace.id } })).status).toBe(200);
    const unknown = "ast_00000000000000000000000000";
    const res = await bulk(t, { action: "checkout", ids: [a!.id, b!.id, unknown, c!.id], personId: ada.id });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => [i.id, i.ok, i.status])).toEqual([
      [a!.id, true, 200],
      [b!.id, false, 409],
      [unknown, false, 404],
      [c!.id, true, 200],
    ]);
    expect(res.body.items[0]!.item).toMatchObject({ id: a!.id, status: "assigned", assigneeId: ada.id });
    // The same envelope the single route answers.
    const single = await api<ErrorBody>(t, `/inventory-items/${b!.id}/checkout`, { body: { personId: ada.id } });
    expect(withoutRequestId(res.body.items[1]!.error!)).toEqual(withoutRequestId(single.body));
    expect(res.body.items[1]!.error!.requestId).toBe(res.headers.get("x-request-id"));
    const single404 = await api<ErrorBody>(t, `/inventory-items/${unknown}/checkout`, { body: { personId: ada.id } });
    expect(withoutRequestId(res.body.items[2]!.error!)).toEqual(withoutRequestId(single404.body));

    // Every rule of the single route: history, timeline, status events, events.
    for (const id of [a!.id, c!.id]) {
      const history = await api<Page<Assignment>>(t, `/inventory-items/${id}/assignment-history`);
      expect(history.body.items).toHaveLength(1);
      const timeline = await api<Page<TimelineEntry>>(t, `/inventory-items/${id}/timeline`);
      expect(timeline.body.items.map((e) => e.type)).toContain("ASSIGNED");
      const events = await api<Page<AssetStatusEvent>>(t, `/inventory-items/${id}/status-events`);
      expect(events.body.items[0]).toMatchObject({ fromStatus: "available", toStatus: "assigned" });
      const audit = await api<Page<AuditEntry>>(t, `/inventory-items/${id}/audit`);
      expect(audit.body.items.length).toBeGreaterThan(0);
    }
    const checkedOut = await outboxRows(t, { type: "asset.checked_out" });
    expect(checkedOut.map((e) => e.subjectId).sort()).toEqual([a!.id, b!.id, c!.id].sort());
  });

  it("checkout of 100 assets in one request (under D1's 100-parameter cap), then check-in of all", async () => {
    const t = await createTenant();
    const assets = await seedAssets(t, 100);
    const person = await seedPerson(t);
    const ids = assets.map((a) => a.id);
    const out = await bulk(t, { action: "checkout", ids, personId: person.id });
    expect(out.status).toBe(200);
    expect(out.body.items.every((i) => i.ok && i.status === 200)).toBe(true);
    const held = await api<Page<PersonAssignment>>(t, `/people/${person.id}/assignment-history?limit=100`);
    expect(held.body.items).toHaveLength(100);
    const back = await bulk(t, { action: "checkin", ids, notes: "end of project" });
    expect(back.body.items.every((i) => i.ok)).toBe(true);
    const list = await api<Page<InventoryItemListItem>>(t, `/inventory-items?assigneeId=${person.id}`);
    expect(list.body.items).toHaveLength(0);
    const again = await bulk(t, { action: "checkin", ids: ids.slice(0, 2) });
    expect(again.body.items.map((i) => i.status)).toEqual([409, 409]);
  });

  it("status, update (moves location), delete and restore", async () => {
    const t = await createTenant();
    const [a, b] = await seedAssets(t, 2);
    const noReason = await bulk(t, { action: "status", ids: [a!.id, b!.id], toStatus: "retired" });
    expect(noReason.body.items.map((i) => [i.status, i.error!.code])).toEqual([
      [400, "validation_failed"],
      [400, "validation_failed"],
    ]);
    const maint = await bulk(t, { action: "status", ids: [a!.id, b!.id], toStatus: "maintenance" });
    expect(maint.body.items.map((i) => i.item!.status)).toEqual(["maintenance", "maintenance"]);
    const same = await bulk(t, { action: "status", ids: [a!.id], toStatus: "maintenance" });
    expect(same.body.items[0]).toMatchObject({ ok: false, status: 409 });

    const room = await createLocation(t, "Room 2");
    const moved = await bulk(t, { action: "update", ids: [a!.id, b!.id], locationId: room, notes: "moved" });
    expect(moved.body.items.map((i) => [i.item!.locationId, i.item!.notes])).toEqual([
      [room, "moved"],
      [room, "moved"],
    ]);
    const timeline = await api<Page<TimelineEntry>>(t, `/inventory-items/${a!.id}/timeline`);
    expect(timeline.body.items[0]!.type).toBe("MOVED");
    const badRef = await bulk(t, { action: "update", ids: [a!.id], locationId: "loc_00000000000000000000000000" });
    expect(badRef.body.items[0]).toMatchObject({ ok: false, status: 400 });

    const del = await bulk(t, { action: "delete", ids: [a!.id, b!.id] });
    expect(del.body.items.map((i) => i.status)).toEqual([204, 204]);
    expect((await api(t, `/inventory-items/${a!.id}`)).status).toBe(404);
    const restored = await bulk(t, { action: "restore", ids: [a!.id, b!.id] });
    expect(restored.body.items.map((i) => i.status)).toEqual([200, 200]);
    expect((await api(t, `/inventory-items/${a!.id}`)).status).toBe(200);
    const twice = await bulk(t, { action: "restore", ids: [a!.id] });
    expect(twice.body.items[0]).toMatchObject({ ok: false, status: 404 });
  });

  it("refuses more than 100 ids, repeated ids, unknown actions and fields (400)", async () => {
    const t = await createTenant();
    const ids = Array.from({ length: 101 }, (_, i) => `ast_${String(i).padStart(26, "0")}`);
    expect((await bulk(t, { action: "delete", ids })).status).toBe(400);
    expect((await bulk(t, { action: "delete", ids: [ids[0], ids[0]] })).status).toBe(400);
    expect((await bulk(t, { action: "explode", ids: [ids[0]] })).status).toBe(400);
    expect((await bulk(t, { action: "delete", ids: [ids[0]], uniqueTag: "X" })).status).toBe(400);
    expect((await bulk(t, { action: "update", ids: [ids[0]], uniqueTag: "X" })).status).toBe(400);
  });

  it("is idempotent with Idempotency-Key: a retried bulk checkout replays, checking nothing out twice", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const person = await seedPerson(t);
    const headers = { "idempotency-key": `bulk-${Date.now()}` };
    const first = await bulk(t, { action: "checkout", ids: [a!.id], personId: person.id }, headers);
    const again = await bulk(t, { action: "checkout", ids: [a!.id], personId: person.id }, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.body.items[0]!.ok).toBe(true);
  });
});
