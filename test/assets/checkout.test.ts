import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assignments } from "../../src/db/tenant/assets";
import { commitWrite } from "../../src/events/write";
import type { AssetStatusEvent, Assignment, AuditEntry, InventoryItem, TimelineEntry } from "../../src/modules/assets";
import { checkinAllForPerson } from "../../src/modules/assets/custody/checkin-people";
import { compileAssetWrite } from "../../src/modules/assets/write";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { assetRow, createAsset, type ForbiddenMove, writeCounts } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { seedPerson, setPerson } from "../harness/people";
import { api, createTenant, type Failure } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe("checkout and check-in", () => {
  it("checks out and in: assignee, timestamps, history, timeline, audit and events; the location stays", async () => {
    const t = await createTenant();
    const p = await seedPerson(t, { name: "Grace Hopper" });
    const a = await createAsset(t);
    const due = inDays(7);
    const out = await api<InventoryItem>(t, `/inventory-items/${a.id}/checkout`, {
      body: { personId: p.id, dueBackAt: due },
    });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({
      status: "assigned",
      assigneeId: p.id,
      assignedAt: expect.any(String),
      dueBackAt: due,
      locationId: a.locationId,
    });

    const back = await api<InventoryItem>(t, `/inventory-items/${a.id}/checkin`, { body: { notes: "Scratched lid" } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      status: "available",
      assigneeId: null,
      assignedAt: null,
      dueBackAt: null,
      locationId: a.locationId,
    });

    const history = await api<Page<Assignment>>(t, `/inventory-items/${a.id}/assignment-history`);
    expect(history.body.items).toEqual([
      expect.objectContaining({
        personId: p.id,
        personName: "Grace Hopper",
        checkedOutAt: out.body.assignedAt,
        dueBackAt: due,
        checkedInAt: back.body.updatedAt,
        checkedInBy: expect.any(String),
        checkedOutBy: expect.any(String),
        checkinReason: "checkin",
        checkinNotes: "Scratched lid",
      }),
    ]);
    // The person's side carries the same check-in notes.
    const personSide = await api<Page<Assignment>>(t, `/people/${p.id}/assignment-history`);
    expect(personSide.body.items).toEqual([
      expect.objectContaining({ assetId: a.id, checkinReason: "checkin", checkinNotes: "Scratched lid" }),
    ]);
    const timeline = await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`);
    expect(timeline.body.items.map((e) => e.type)).toEqual(["UNASSIGNED", "ASSIGNED", "CREATED"]);
    expect(timeline.body.items[1]!.data).toMatchObject({ personId: p.id, personName: "Grace Hopper", dueBackAt: due });
    const audit = (await api<Page<AuditEntry>>(t, `/inventory-items/${a.id}/audit`)).body.items;
    expect(
      audit
        .filter((e) => e.action === "checkout")
        .map((e) => e.field)
        .sort(),
    ).toEqual(["assignedAt", "assigneeId", "dueBackAt", "holder", "status"]);
    expect(audit.find((e) => e.action === "checkin" && e.field === "assigneeId")).toMatchObject({
      oldValue: p.id,
      newValue: null,
    });
    const events = await outboxRows(t, { subjectId: a.id });
    expect(events.map((e) => e.type)).toEqual(["asset.created", "asset.checked_out", "asset.checked_in"]);
    expect(events[1]!.payload).toMatchObject({ assigneeId: p.id, assignment: { personId: p.id } });

    // Checking in something not checked out: 409 with the allowed moves.
    const again = await api<ForbiddenMove>(t, `/inventory-items/${a.id}/checkin`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(again.body.details.allowed).toEqual(
      expect.arrayContaining([expect.objectContaining({ toStatus: "assigned", via: "checkout" })]),
    );
  });

  it("checkout and check-in are listed in status-events (who, when, from, to, reason); the timeline keeps ASSIGNED/UNASSIGNED only", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const a = await createAsset(t);
    expect((await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "reserved" } })).status).toBe(200);
    const out = await api<InventoryItem>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    expect(out.status).toBe(200);
    const back = await api<InventoryItem>(t, `/inventory-items/${a.id}/checkin`, { method: "POST" });
    expect(back.status).toBe(200);
    const assignmentId = (await api<Page<Assignment>>(t, `/inventory-items/${a.id}/assignment-history`)).body.items[0]!
      .id;

    const events = (await api<Page<AssetStatusEvent>>(t, `/inventory-items/${a.id}/status-events`)).body.items;
    expect(events).toEqual([
      {
        id: expect.any(String),
        fromStatus: "assigned",
        toStatus: "available",
        reason: "checkin",
        meta: { personId: p.id, assignmentId },
        actor: expect.any(String),
        at: back.body.updatedAt,
      },
      {
        id: expect.any(String),
        fromStatus: "reserved",
        toStatus: "assigned",
        reason: "checkout",
        meta: { personId: p.id, assignmentId },
        actor: expect.any(String),
        at: out.body.updatedAt,
      },
      expect.objectContaining({ fromStatus: "available", toStatus: "reserved" }),
    ]);
    const timeline = (await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`)).body.items;
    expect(timeline.map((e) => e.type)).toEqual(["UNASSIGNED", "ASSIGNED", "STATUS_CHANGED", "CREATED"]);
  });

  it("concurrent checkouts of one asset: exactly one 200, the rest 409, one open assignment", async () => {
    const t = await createTenant();
    const [p1, p2] = [await seedPerson(t, { name: "One" }), await seedPerson(t, { name: "Two" })];
    const a = await createAsset(t);
    const pair = await Promise.all(
      [p1, p2].map((p) =>
        api<InventoryItem | ErrorBody>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } }),
      ),
    );
    expect(pair.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((pair.find((r) => r.status === 409)!.body as ErrorBody).code).toBe("conflict");
    // And with more contenders on a fresh asset.
    const b = await createAsset(t);
    const crowd = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api(t, `/inventory-items/${b.id}/checkout`, { body: { personId: i % 2 ? p1.id : p2.id } }),
      ),
    );
    expect(crowd.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const results = pair;
    const winner = (results.find((r) => r.status === 200)!.body as InventoryItem).assigneeId;
    expect((await assetRow(t, a.id))?.assigneeId).toBe(winner);
    const open = await (await dbOf(t))
      .select()
      .from(assignments)
      .where(and(eq(assignments.assetId, a.id), isNull(assignments.checkedInAt)))
      .all();
    expect(open.map((o) => o.personId)).toEqual([winner]);
    expect(await outboxRows(t, { type: "asset.checked_out" })).toHaveLength(2);
    expect(
      (await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline?types=ASSIGNED`)).body.items,
    ).toHaveLength(1);
  });

  it("refuses deactivated and deleted people (409), unknown people (400) and past due dates (400), writing nothing", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const gone = await seedPerson(t, { status: "deactivated" });
    const deleted = await seedPerson(t, { deletedAt: new Date().toISOString(), deletedBy: "usr_x" });
    const ok = await seedPerson(t);
    const before = await writeCounts(t);
    const tries = [
      [{ personId: gone.id }, 409, undefined],
      [{ personId: deleted.id }, 409, undefined],
      [{ personId: "per_unknown" }, 400, "body.personId"],
      [{ personId: ok.id, dueBackAt: inDays(-1) }, 400, "body.dueBackAt"],
      [{ personId: ok.id, dueBackAt: "next tuesday" }, 400, "body.dueBackAt"],
      [{}, 400, "body.personId"],
    ] as const;
    for (const [body, status, path] of tries) {
      const res = await api<Failure>(t, `/inventory-items/${a.id}/checkout`, { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (path) expect(res.body.details.map((d) => d.path)).toContain(path);
    }
    expect(await writeCounts(t)).toEqual(before);
    expect((await assetRow(t, a.id))?.status).toBe("available");
  });

  it("refuses assets that are assigned, lost, retired or in maintenance; a reservation is fulfilled by checkout", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    for (const [toStatus, extra] of [
      ["lost", {}],
      ["retired", { reason: "broken" }],
      ["maintenance", {}],
    ] as const) {
      const a = await createAsset(t);
      expect((await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus, ...extra } })).status).toBe(200);
      const res = await api<ErrorBody>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
      expect(res.status, toStatus).toBe(409);
      expect(res.body.details).toMatchObject({
        fromStatus: toStatus,
        toStatus: "assigned",
        allowed: expect.any(Array),
      });
    }
    const held = await createAsset(t);
    expect((await api(t, `/inventory-items/${held.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${held.id}/checkout`, { body: { personId: p.id } })).status).toBe(409);

    const r = await createAsset(t);
    expect(
      (
        await api(t, `/inventory-items/${r.id}/status`, {
          body: { toStatus: "reserved", meta: { reservedUntil: inDays(3), reservationReason: "Onboarding" } },
        })
      ).status,
    ).toBe(200);
    const out = await api(t, `/inventory-items/${r.id}/checkout`, { body: { personId: p.id } });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ status: "assigned", reservedUntil: null, reservationReason: null });
  });

  it("a deleted asset cannot be checked out, and an assigned one cannot be deleted", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const a = await createAsset(t);
    expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(409);
    expect((await api(t, `/inventory-items/${a.id}/checkin`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } })).status).toBe(404);
  });

  it("checkinAllForPerson describes the write that checks every held asset in, for the caller's batch", async () => {
    const t = await createTenant();
    const p = await seedPerson(t, { name: "Leaver" });
    const other = await seedPerson(t);
    const [a1, a2, a3] = [await createAsset(t), await createAsset(t), await createAsset(t)];
    for (const a of [a1, a2])
      expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${a3.id}/checkout`, { body: { personId: other.id } })).status).toBe(200);

    const db = await dbOf(t);
    const ctx = { db, actor: "usr_test", tenantId: t.id };
    const write = await checkinAllForPerson(ctx, p.id, "person_deactivated");
    expect(write.changes.map((c) => c.after.id).sort()).toEqual([a1.id, a2.id].sort());
    await commitWrite(ctx, compileAssetWrite(ctx, write));

    for (const a of [a1, a2]) {
      expect(await assetRow(t, a.id)).toMatchObject({
        status: "available",
        assigneeId: null,
        locationId: a.locationId,
      });
      const hist = (await api<Page<Assignment>>(t, `/inventory-items/${a.id}/assignment-history`)).body.items;
      expect(hist[0]).toMatchObject({
        checkinReason: "person_deactivated",
        checkedInBy: "usr_test",
        checkedInAt: expect.any(String),
      });
      expect(
        (await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline?types=UNASSIGNED`)).body.items[0]!.data,
      ).toMatchObject({
        personId: p.id,
        reason: "person_deactivated",
      });
    }
    expect((await assetRow(t, a3.id))?.assigneeId).toBe(other.id);
    expect((await outboxRows(t, { type: "asset.checked_in" })).map((e) => e.subjectId).sort()).toEqual(
      [a1.id, a2.id].sort(),
    );

    // Stale statements (a checkout happened after they were built) fail as a whole.
    const stale = await checkinAllForPerson(ctx, p.id, "person_deactivated");
    expect((await api(t, `/inventory-items/${a1.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    await expect(commitWrite(ctx, compileAssetWrite(ctx, stale))).rejects.toThrow(/guard:person_assets_changed/);
    expect((await assetRow(t, a1.id))?.assigneeId).toBe(p.id);
  });

  it("refuses checkout to a person deactivated outside the people API", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    await setPerson(t, p.id, { status: "deactivated" });
    const a = await createAsset(t);
    const res = await api<ErrorBody>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("deactivated");
  });
});
