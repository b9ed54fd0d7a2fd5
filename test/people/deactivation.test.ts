import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets, assetTimeline, assignments } from "../../src/db/tenant/assets";
import { people } from "../../src/db/tenant/people";
import type { AssetStatusEvent } from "../../src/modules/assets";
import type { Person, PersonAssignment } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { assignDirectly, insertAsset } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

async function personWithAssets(t: TestTenant, name: string, count: number) {
  const p = await api<Person>(t, "/people", { body: { name } });
  expect(p.status).toBe(201);
  const assetIds: string[] = [];
  const assignmentIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const assetId = await insertAsset(t);
    assetIds.push(assetId);
    assignmentIds.push(
      await assignDirectly(
        t,
        assetId,
        { id: p.body.id, name },
        new Date(Date.now() - (count - i) * 1000).toISOString(),
      ),
    );
  }
  return { id: p.body.id as string, assetIds, assignmentIds };
}

describe("person deactivation and activation", () => {
  it("checks every held asset back in, then deactivates, in one write", async () => {
    const t = await createTenant();
    const { id, assetIds, assignmentIds } = await personWithAssets(t, "Holder", 2);
    const other = await personWithAssets(t, "Other", 1);
    const db = await dbOf(t);

    const res = await api(t, `/people/${id}`, { method: "PATCH", body: { status: "deactivated", title: "Former" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "deactivated", title: "Former" });

    for (const assetId of assetIds) {
      const asset = await db.select().from(assets).where(eq(assets.id, assetId)).get();
      expect(asset).toMatchObject({ status: "available", assigneeId: null, assignedAt: null });
      const timeline = await db.select().from(assetTimeline).where(eq(assetTimeline.assetId, assetId)).all();
      expect(timeline.map((r) => r.type)).toContain("UNASSIGNED");
      expect(timeline.find((r) => r.type === "UNASSIGNED")?.data).toMatchObject({
        personId: id,
        reason: "person_deactivated",
      });
    }
    for (const asgId of assignmentIds) {
      const asg = await db.select().from(assignments).where(eq(assignments.id, asgId)).get();
      expect(asg?.checkedInAt).toEqual(expect.any(String));
      expect(asg?.checkinReason).toBe("person_deactivated");
    }
    // Someone else's assignment is untouched.
    expect((await db.select().from(assets).where(eq(assets.id, other.assetIds[0]!)).get())?.assigneeId).toBe(other.id);

    const events = (await outboxRows(t)).map((r) => [r.type, r.subjectId]);
    expect(events).toEqual(
      expect.arrayContaining([
        ["person.deactivated", id],
        ["person.updated", id],
        ["asset.checked_in", assetIds[0]],
        ["asset.checked_in", assetIds[1]],
      ]),
    );
    const deactivated = (await outboxRows(t, { type: "person.deactivated" }))[0]!;
    expect((deactivated.payload as { checkedInAssetIds: string[] }).checkedInAssetIds.sort()).toEqual(
      [...assetIds].sort(),
    );

    // History says so, newest first.
    const history = await api<Page<PersonAssignment>>(t, `/people/${id}/assignment-history?limit=1`);
    expect(history.status).toBe(200);
    expect(history.body.items[0]).toMatchObject({
      id: assignmentIds[1],
      assetId: assetIds[1],
      personId: id,
      checkinReason: "person_deactivated",
      assetName: expect.any(String),
    });
    const page2 = await api<Page<PersonAssignment>>(
      t,
      `/people/${id}/assignment-history?limit=1&cursor=${history.body.nextCursor}`,
    );
    expect(page2.body.items.map((a) => a.id)).toEqual([assignmentIds[0]]);
    expect(page2.body.nextCursor).toBeNull();

    // Hidden from the default list, shown with status=all, still readable.
    expect((await api<Page<Person>>(t, "/people")).body.items.map((p) => p.id)).toEqual([other.id]);
    expect((await api<Page<Person>>(t, "/people?status=all")).body.items.map((p) => p.id).sort()).toEqual(
      [id, other.id].sort(),
    );
    expect((await api<Person>(t, `/people/${id}`)).body.status).toBe("deactivated");

    // Activation brings them back; assets stay checked in.
    const back = await api<Person>(t, `/people/${id}`, { method: "PATCH", body: { status: "active" } });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe("active");
    expect((await api<Page<Person>>(t, "/people")).body.items).toHaveLength(2);
    expect((await outboxRows(t, { type: "person.activated" })).map((r) => r.subjectId)).toEqual([id]);
    expect((await db.select().from(assets).where(eq(assets.id, assetIds[0]!)).get())?.assigneeId).toBeNull();
  });

  it("writes a status event per checked-in asset (assigned -> available, person_deactivated), past one INSERT's parameter cap", async () => {
    const t = await createTenant();
    // 15 assets: more status-event rows than one INSERT can bind under D1's 100 parameters.
    const { id, assetIds, assignmentIds } = await personWithAssets(t, "Mover", 15);
    const res = await api(t, `/people/${id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(res.status).toBe(200);
    for (const [i, assetId] of assetIds.entries()) {
      const events = (await api<Page<AssetStatusEvent>>(t, `/inventory-items/${assetId}/status-events`)).body.items;
      expect(events).toEqual([
        {
          id: expect.any(String),
          fromStatus: "assigned",
          toStatus: "available",
          reason: "person_deactivated",
          meta: { personId: id, assignmentId: assignmentIds[i] },
          actor: expect.any(String),
          at: expect.any(String),
        },
      ]);
    }
  });

  it("deactivates a person without assets, and a repeated status is a no-op", async () => {
    const t = await createTenant();
    const p = await api<Person>(t, "/people", { body: { name: "Plain" } });
    expect((await api(t, `/people/${p.body.id}`, { method: "PATCH", body: { status: "deactivated" } })).status).toBe(
      200,
    );
    expect((await api(t, `/people/${p.body.id}`, { method: "PATCH", body: { status: "deactivated" } })).status).toBe(
      200,
    );
    expect(await outboxRows(t, { type: "person.deactivated" })).toHaveLength(1);
    expect((await api(t, `/people/${p.body.id}`, { method: "PATCH", body: { status: "gone" } })).status).toBe(400);
  });

  it("refuses to delete a person who holds assets (409 naming them); deactivating first makes it possible", async () => {
    const t = await createTenant();
    const { id, assetIds } = await personWithAssets(t, "Keeper", 1);
    const res = await api<ErrorBody>(t, `/people/${id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.body.details).toEqual({ assetIds });
    const row = await (await dbOf(t)).select().from(people).where(eq(people.id, id)).get();
    expect(row?.deletedAt).toBeNull();
    expect(await outboxRows(t, { type: "person.deleted" })).toEqual([]);

    expect((await api(t, `/people/${id}`, { method: "PATCH", body: { status: "deactivated" } })).status).toBe(200);
    expect((await api(t, `/people/${id}`, { method: "DELETE" })).status).toBe(204);
    // History of a deleted person is gone with them (404); restore brings it back.
    expect((await api(t, `/people/${id}/assignment-history`)).status).toBe(404);
    const restored = await api<Person>(t, `/people/${id}/restore`, { method: "POST" });
    expect(restored.body.status).toBe("deactivated");
    expect((await api<Page<PersonAssignment>>(t, `/people/${id}/assignment-history`)).body.items).toHaveLength(1);
  });

  it("two concurrent deactivations check in once: one wins, the other is a no-op or a 409", async () => {
    const t = await createTenant();
    const { id, assetIds } = await personWithAssets(t, "Racer", 2);
    const results = await Promise.all(
      [1, 2].map(() => api(t, `/people/${id}`, { method: "PATCH", body: { status: "deactivated" } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(await outboxRows(t, { type: "person.deactivated" })).toHaveLength(1);
    expect(await outboxRows(t, { type: "asset.checked_in" })).toHaveLength(assetIds.length);
    const timeline = await (await dbOf(t))
      .select()
      .from(assetTimeline)
      .where(eq(assetTimeline.type, "UNASSIGNED"))
      .all();
    expect(timeline).toHaveLength(assetIds.length);
  });
});
