import { describe, expect, it } from "vitest";
import type { AssetStatusEvent, InventoryItem, TimelineEntry } from "../../src/modules/assets";
import { STATUS_TRANSITIONS } from "../../src/modules/assets/status";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { assetRow, createAsset, type ForbiddenMove, writeCounts } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";

const move = <T = InventoryItem>(t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<T>(t, `/inventory-items/${id}/status`, { body });
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

describe("status lifecycle", () => {
  it("answers allowed transitions from the lifecycle table, including checkout/check-in", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const res = await api(t, `/inventory-items/${a.id}/allowed-status-transitions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "available",
      allowed: [
        { toStatus: "reserved", via: "status", reasonRequired: false },
        { toStatus: "maintenance", via: "status", reasonRequired: false },
        { toStatus: "lost", via: "status", reasonRequired: false },
        { toStatus: "retired", via: "status", reasonRequired: true },
        { toStatus: "assigned", via: "checkout", reasonRequired: false },
      ],
    });
    const p = await seedPerson(t);
    await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    expect((await api(t, `/inventory-items/${a.id}/allowed-status-transitions`)).body).toEqual({
      status: "assigned",
      allowed: [{ toStatus: "available", via: "checkin", reasonRequired: false }],
    });
  });

  it("walks every allowed move of the table and refuses every other one with 409 listing the allowed", async () => {
    const t = await createTenant();
    const statuses = Object.keys(STATUS_TRANSITIONS).filter(
      (s) => s !== "assigned",
    ) as (keyof typeof STATUS_TRANSITIONS)[];
    for (const from of statuses) {
      for (const to of Object.keys(STATUS_TRANSITIONS) as (keyof typeof STATUS_TRANSITIONS)[]) {
        const a = await createAsset(t);
        if (from !== "available") expect((await move(t, a.id, { toStatus: from, reason: "setup" })).status).toBe(200);
        const res = await move<InventoryItem | ForbiddenMove>(t, a.id, { toStatus: to, reason: "because" });
        const allowed = STATUS_TRANSITIONS[from].includes(to);
        expect(res.status, `${from} -> ${to}`).toBe(allowed ? 200 : 409);
        if (allowed) expect((res.body as InventoryItem).status).toBe(to);
        else {
          expect((res.body as ForbiddenMove).details.fromStatus).toBe(from);
          expect(
            (res.body as ForbiddenMove).details.allowed.filter((m) => m.via === "status").map((m) => m.toStatus),
          ).toEqual(STATUS_TRANSITIONS[from]);
          expect((await assetRow(t, a.id))?.status).toBe(from);
        }
      }
    }
  });

  it("assigned is entered only by checkout and left only by check-in", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const toAssigned = await move<ErrorBody>(t, a.id, { toStatus: "assigned" });
    expect(toAssigned.status).toBe(409);
    expect(toAssigned.body.message).toContain("checkout");
    const p = await seedPerson(t);
    await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    const fromAssigned = await move<ForbiddenMove>(t, a.id, { toStatus: "lost" });
    expect(fromAssigned.status).toBe(409);
    expect(fromAssigned.body.message).toContain("checkin");
    expect(fromAssigned.body.details.allowed).toEqual([
      { toStatus: "available", via: "checkin", reasonRequired: false },
    ]);
  });

  it("retiring needs a reason, records RETIRED and STATUS_CHANGED, and can be reinstated", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const before = await writeCounts(t);
    for (const body of [{ toStatus: "retired" }, { toStatus: "retired", reason: "   " }]) {
      const res = await move<ErrorBody>(t, a.id, body);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: "body.reason", message: expect.stringContaining("required") }]);
    }
    const unknown = await move<Failure>(t, a.id, { toStatus: "stolen" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0]!.path).toBe("body.toStatus");
    expect(await writeCounts(t)).toEqual(before);

    const retired = await move(t, a.id, { toStatus: "retired", reason: "Battery swollen" });
    expect(retired.status).toBe(200);
    const timeline = (await api<Page<TimelineEntry>>(t, `/inventory-items/${a.id}/timeline`)).body.items;
    expect(timeline.map((e) => e.type)).toEqual(["RETIRED", "STATUS_CHANGED", "CREATED"]);
    expect(timeline[1]!.data).toMatchObject({
      fromStatus: "available",
      toStatus: "retired",
      reason: "Battery swollen",
    });
    const back = await move(t, a.id, { toStatus: "available", reason: "Repaired after all" });
    expect(back.status).toBe(200);

    const events = (await api<Page<AssetStatusEvent>>(t, `/inventory-items/${a.id}/status-events`)).body.items;
    expect(events).toEqual([
      expect.objectContaining({
        fromStatus: "retired",
        toStatus: "available",
        reason: "Repaired after all",
        actor: expect.any(String),
        at: back.body.updatedAt,
      }),
      expect.objectContaining({ fromStatus: "available", toStatus: "retired", reason: "Battery swollen", meta: null }),
    ]);
    const outbox = await outboxRows(t, { type: "asset.status_changed" });
    expect(outbox.map((e) => [e.payload.fromStatus, e.payload.toStatus])).toEqual([
      ["available", "retired"],
      ["retired", "available"],
    ]);
  });

  it("reservations carry reservedUntil and reservationReason in meta, cleared when leaving reserved", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const until = inDays(5);
    expect(
      (await move(t, a.id, { toStatus: "reserved", meta: { reservedUntil: `${until.slice(0, 19)}+00:00` } })).status,
    ).toBe(200);
    expect((await move(t, a.id, { toStatus: "available" })).status).toBe(200);
    const res = await move(t, a.id, {
      toStatus: "reserved",
      meta: { reservedUntil: until, reservationReason: "Trade show" },
    });
    expect(res.body).toMatchObject({ status: "reserved", reservedUntil: until, reservationReason: "Trade show" });
    expect(
      (await api<Page<AssetStatusEvent>>(t, `/inventory-items/${a.id}/status-events?limit=1`)).body.items[0]!.meta,
    ).toEqual({
      reservedUntil: until,
      reservationReason: "Trade show",
    });

    const before = await writeCounts(t);
    for (const [body, path] of [
      [{ toStatus: "lost", meta: { reservationReason: "x" } }, "body.meta"],
      [{ toStatus: "maintenance", meta: { reservedUntil: inDays(-1) } }, "body.meta"],
      [{ toStatus: "reserved", meta: { reservedUntil: "soon" } }, "body.meta.reservedUntil"],
      [{ toStatus: "reserved", meta: { colour: "red" } }, "body.meta"],
    ] as const) {
      const r = await move<Failure>(t, a.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.details[0]!.path).toBe(path);
    }
    expect(await writeCounts(t)).toEqual(before);
    const left = await move(t, a.id, { toStatus: "maintenance" });
    expect(left.body).toMatchObject({ status: "maintenance", reservedUntil: null, reservationReason: null });
  });

  it("of two concurrent moves from the same status exactly one wins", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const [x, y] = await Promise.all([move(t, a.id, { toStatus: "lost" }), move(t, a.id, { toStatus: "maintenance" })]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const winner = (x.status === 200 ? x : y).body.status;
    expect((await assetRow(t, a.id))?.status).toBe(winner);
    const events = (await api<Page<AssetStatusEvent>>(t, `/inventory-items/${a.id}/status-events`)).body.items;
    expect(events.map((e) => e.toStatus)).toEqual([winner]);
  });
});
