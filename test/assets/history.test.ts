import { describe, expect, it } from "vitest";
import type { AssetStatusEvent, Assignment, AuditEntry, TimelineEntry } from "../../src/modules/assets";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import { createAsset } from "../harness/assets-helpers";
import { seedPerson } from "../harness/people";
import { api, type CallResult, createTenant, type Failure } from "../harness/tenant";

describe("asset history", () => {
  it("timeline: newest first, limit/cursor paging, types filter, unknown type 400", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const a = await createAsset(t);
    const loc = (await api<Location>(t, "/locations", { body: { name: "Lab" } })).body.id;
    await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { locationId: loc } });
    await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    await api(t, `/inventory-items/${a.id}/checkin`, { method: "POST" });
    await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "maintenance" } });

    const full = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`);
    expect(full.status).toBe(200);
    expect(full.body.items.map((e) => e.type)).toEqual([
      "STATUS_CHANGED",
      "UNASSIGNED",
      "ASSIGNED",
      "MOVED",
      "CREATED",
    ]);
    expect(full.body.items[0]).toEqual({
      id: expect.stringMatching(/^tle_/),
      type: "STATUS_CHANGED",
      at: expect.any(String),
      actor: expect.any(String),
      data: expect.objectContaining({ fromStatus: "available", toStatus: "maintenance" }),
    });
    expect(full.body.nextCursor).toBeNull();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: CallResult<Page<TimelineEntry>> = await api(
        t,
        `/inventory-items/${a.id}/timeline?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((e) => e.type));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(full.body.items.map((e) => e.type));

    const filtered = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline?types=ASSIGNED,UNASSIGNED`);
    expect(filtered.body.items.map((e) => e.type)).toEqual(["UNASSIGNED", "ASSIGNED"]);
    const bad = await api<Failure>(t, `/inventory-items/${a.id}/timeline?types=ASSIGNED,EXPLODED`);
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ path: "query.types", message: expect.stringContaining("EXPLODED") });
    expect((await api(t, `/inventory-items/${a.id}/timeline?limit=101`)).status).toBe(400);
    expect((await api(t, `/inventory-items/${a.id}/timeline?limit=0`)).status).toBe(400);
    expect((await api(t, `/inventory-items/${a.id}/timeline?cursor=nope`)).status).toBe(400);
  });

  it("defaults the timeline page to 50 and caps it at 100", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    for (let i = 0; i < 55; i++)
      await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: i % 2 ? "available" : "maintenance" } });
    const page = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`);
    expect(page.body.items).toHaveLength(50);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    expect((await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline?limit=100`)).body.items).toHaveLength(
      56,
    );
  });

  it("assignment history, status events and audit are paginated newest first", async () => {
    const t = await createTenant();
    const [p1, p2] = [await seedPerson(t, { name: "First" }), await seedPerson(t, { name: "Second" })];
    const a = await createAsset(t);
    for (const p of [p1, p2]) {
      expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
      expect((await api(t, `/inventory-items/${a.id}/checkin`, { method: "POST" })).status).toBe(200);
    }
    const h1 = await api<Page<Assignment>>(t, `/inventory-items/${a.id}/assignment-history?limit=1`);
    expect(h1.body.items.map((x) => x.personName)).toEqual(["Second"]);
    const h2 = await api<Page<Assignment>>(
      t,
      `/inventory-items/${a.id}/assignment-history?limit=1&cursor=${h1.body.nextCursor}`,
    );
    expect(h2.body.items.map((x) => x.personName)).toEqual(["First"]);
    expect(h2.body.nextCursor).toBeNull();

    await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "lost" } });
    await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "available" } });
    const s1 = await api<Page<AssetStatusEvent>>(t, `/inventory-items/${a.id}/status-events?limit=1`);
    expect(s1.body.items[0]).toMatchObject({ fromStatus: "lost", toStatus: "available" });
    const s2 = await api<Page<AssetStatusEvent>>(
      t,
      `/inventory-items/${a.id}/status-events?cursor=${s1.body.nextCursor}`,
    );
    // Checkouts and check-ins are status changes too (reason checkout/checkin).
    expect(s2.body.items.map((e) => [e.toStatus, e.reason])).toEqual([
      ["lost", null],
      ["available", "checkin"],
      ["assigned", "checkout"],
      ["available", "checkin"],
      ["assigned", "checkout"],
    ]);

    const audit = await api<Page<AuditEntry>>(t, `/inventory-items/${a.id}/audit?limit=100`);
    expect(audit.status).toBe(200);
    expect(new Set(audit.body.items.map((e) => e.action))).toEqual(
      new Set(["create", "checkout", "checkin", "status"]),
    );
    for (const e of audit.body.items)
      expect(Object.keys(e).sort()).toEqual(["action", "actor", "at", "field", "id", "newValue", "oldValue"]);
    const outs = audit.body.items.filter((e) => e.action === "checkout" && e.field === "assigneeId");
    expect(outs.map((e) => [e.oldValue, e.newValue])).toEqual([
      [null, p2.id],
      [null, p1.id],
    ]);
    expect(audit.body.items.find((e) => e.action === "status" && e.field === "status")).toMatchObject({
      oldValue: "lost",
      newValue: "available",
    });
    const deleted = await api(t, `/inventory-items/${a.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await api(t, `/inventory-items/${a.id}/audit`)).status).toBe(404);
  });
});
