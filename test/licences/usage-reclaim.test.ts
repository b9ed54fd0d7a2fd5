import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenceSeats } from "../../src/db/tenant/licences";
import { notifications } from "../../src/db/tenant/notifications";
import { people } from "../../src/db/tenant/people";
import type { LicenceSeat } from "../../src/modules/licences";
import type { Page } from "../../src/platform/pagination";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { api, createTenant, type Failure } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

type UsageResult = { recorded: number; duplicates: number; seatsTouched: number; unmatched: number[] };
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();

describe("licence usage and reclaiming", () => {
  it("records usage in bulk and idempotently, keeps each seat's last use, and ranks unused seats by cost", async () => {
    const t = await createTenant();
    const cheap = await newProduct(t, { name: "Notes" });
    const dear = await newProduct(t, { name: "CAD" });
    const cheapLot = await newLot(t, cheap.id, { seats: 10, cost: 100 }); // 10.00 per seat
    const dearLot = await newLot(t, dear.id, { seats: 2, cost: 3000 }); // 1500.00 per seat
    const ada = await seedPerson(t, { name: "Ada" });
    const bob = await seedPerson(t, { name: "Bob" });
    const cy = await seedPerson(t, { name: "Cy" });
    const db = await dbOf(t);
    const seats: Record<string, string> = {};
    for (const [key, lotId, personId] of [
      ["adaCheap", cheapLot.id, ada.id],
      ["bobCheap", cheapLot.id, bob.id],
      ["adaDear", dearLot.id, ada.id],
      ["cyDear", dearLot.id, cy.id],
    ] as const) {
      const res = await assign(t, lotId, { personId });
      expect(res.status).toBe(201);
      seats[key] = res.body.id;
    }
    // Assigned long ago (the list counts from the assignment when a seat was never used).
    await db
      .update(licenceSeats)
      .set({ assignedAt: daysAgo(200) })
      .run();

    const reports = {
      source: "sso-logs",
      reports: [
        { productId: cheap.id, personId: ada.id, usedAt: daysAgo(100) },
        { productId: cheap.id, personId: ada.id, usedAt: daysAgo(2) },
        { productId: dear.id, personId: ada.id, usedAt: daysAgo(120) },
        { productId: dear.id, personId: bob.id, usedAt: daysAgo(1) }, // Bob holds no CAD seat
      ],
    };
    const first = await api<UsageResult>(t, "/licence-usage", { body: reports });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ recorded: 4, duplicates: 0, seatsTouched: 2, unmatched: [3] });
    const again = await api<UsageResult>(t, "/licence-usage", { body: reports });
    expect(again.body).toEqual({ recorded: 0, duplicates: 4, seatsTouched: 0, unmatched: [3] });
    // An older report never moves lastUsedAt back.
    await api(t, "/licence-usage", {
      body: { reports: [{ productId: cheap.id, personId: ada.id, usedAt: daysAgo(50) }] },
    });
    const adaCheap = await api<LicenceSeat>(t, `/licence-seats/${seats.adaCheap}`);
    expect(adaCheap.body.lastUsedAt).toBe(new Date(reports.reports[1]!.usedAt).toISOString());

    const bad = await api<Failure>(t, "/licence-usage", {
      body: { reports: [{ productId: "lic_01jd3k4m5n6p7q8r9s0t1v2w3x", personId: ada.id, usedAt: daysAgo(1) }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]!.path).toBe("body.reports.0.productId");

    // Unused 90 days: Ada's CAD seat (last used 120 days ago), Cy's CAD seat and Bob's Notes seat
    // (never used): the costliest first. Ada's Notes seat was used 2 days ago.
    const list = await api<Page<LicenceSeat>>(t, "/licence-reclaim?days=90&limit=2");
    expect(list.status).toBe(200);
    const next = await api<Page<LicenceSeat>>(t, `/licence-reclaim?days=90&limit=2&cursor=${list.body.nextCursor}`);
    const ranked = [...list.body.items, ...next.body.items].map((s) => s.id);
    // Equal costs: by id, newest first.
    const dearSeats = [seats.cyDear!, seats.adaDear!].sort().reverse();
    expect(ranked).toEqual([...dearSeats, seats.bobCheap]);
    expect(next.body.nextCursor).toBeNull();

    // Reclaiming frees the seat, with an event and a notification for the managers and the holder's user.
    const admin = await createUser(t, "admin");
    const cyUser = await createUser(t, "member");
    await db
      .update(licenceSeats)
      .set({ assignedAt: daysAgo(200) })
      .run();
    await db.update(people).set({ email: cyUser.email }).where(eq(people.id, cy.id)).run();
    const reclaimed = await api<{ reclaimed: LicenceSeat[]; notifiedUserIds: string[] }>(t, "/licence-reclaim", {
      body: { seatIds: [seats.cyDear] },
    });
    expect(reclaimed.status, JSON.stringify(reclaimed.body)).toBe(200);
    expect(reclaimed.body.reclaimed[0]).toMatchObject({ id: seats.cyDear, unassignReason: "reclaimed" });
    expect(reclaimed.body.notifiedUserIds).toEqual([t.owner.id, admin.id, cyUser.id].sort());
    const inbox = await db.select().from(notifications).orderBy(asc(notifications.id)).all();
    expect(
      inbox
        .filter((n) => n.type === "licence_seat.reclaimed")
        .map((n) => n.userId)
        .sort(),
    ).toEqual([t.owner.id, admin.id, cyUser.id].sort());
    expect((await outboxRows(t)).filter((e) => e.type === "licence_seat.reclaimed").map((e) => e.subjectId)).toEqual([
      seats.cyDear,
    ]);
    // Reclaimed once: again is a 409, and nothing changes.
    expect((await api(t, "/licence-reclaim", { body: { seatIds: [seats.cyDear] } })).status).toBe(409);
    expect((await api(t, `/licence-lots/${dearLot.id}`)).body).toMatchObject({ assigned: 1 });
  });

  it("a bulk report of 1,000 rows is one write", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { kind: "unlimited", seats: undefined });
    const person = await seedPerson(t);
    expect((await assign(t, lot.id, { personId: person.id })).status).toBe(201);
    const base = Date.now() - 86_400_000;
    const reports = Array.from({ length: 1000 }, (_, i) => ({
      productId: product.id,
      personId: person.id,
      usedAt: new Date(base + i * 1000).toISOString(),
    }));
    const res = await api<UsageResult>(t, "/licence-usage", { body: { reports } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recorded: 1000, seatsTouched: 1 });
    expect(
      (await api(t, "/licence-usage", { body: { reports: [...reports, ...reports].slice(0, 1001) } })).status,
    ).toBe(400);
  });
});
