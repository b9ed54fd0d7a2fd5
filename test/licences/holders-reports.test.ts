import { describe, expect, it } from "vitest";
import type { LicenceLot, LicenceSeat } from "../../src/modules/licences";
import type { Page } from "../../src/platform/pagination";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { eventually, outboxRows } from "../harness/outbox";
import { insertAsset, seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { api, createTenant } from "../harness/tenant";

type Review = {
  id: string;
  status: string;
  items: { seatId: string; reviewerPersonId: string | null; outcome: string | null }[];
};

describe("licence seats when holders leave, reports and access reviews", () => {
  it("a person's deactivation releases their seats in its own write, unless the product holds them", async () => {
    const t = await createTenant();
    const released = await newProduct(t, { name: "Chat" });
    const held = await newProduct(t, { name: "Archive", onHolderLeaves: "hold" });
    const a = await newLot(t, released.id);
    const b = await newLot(t, held.id);
    const ada = await seedPerson(t, { name: "Ada" });
    const s1 = (await assign(t, a.id, { personId: ada.id })).body;
    const s2 = (await assign(t, b.id, { personId: ada.id })).body;
    const res = await api(t, `/people/${ada.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const open = await api<Page<LicenceSeat>>(t, `/people/${ada.id}/licence-seats`);
    expect(open.body.items.map((s) => s.id)).toEqual([s2.id]);
    expect((await api<LicenceSeat>(t, `/licence-seats/${s1.id}`)).body.unassignReason).toBe("person_deactivated");
    expect((await api<LicenceLot>(t, `/licence-lots/${a.id}`)).body.assigned).toBe(0);
    const events = await outboxRows(t);
    expect(events.filter((e) => e.type === "licence_seat.released").map((e) => e.subjectId)).toEqual([s1.id]);
    // One write: the deactivation's event and the release's are in the same batch (adjacent ids order).
    const types = events.map((e) => e.type);
    expect(types).toContain("person.deactivated");
  });

  it("an asset's retirement releases its seats (licence_seat.released)", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { kind: "per_device", seats: 3 });
    const laptop = await insertAsset(t);
    const seat = (await assign(t, lot.id, { assetId: laptop })).body;
    const retired = await api(t, `/inventory-items/${laptop}/status`, {
      method: "POST",
      body: { toStatus: "retired", reason: "end of life" },
    });
    expect(retired.status, JSON.stringify(retired.body)).toBe(200);
    const closed = await eventually(async () => {
      const s = await api<LicenceSeat>(t, `/licence-seats/${seat.id}`);
      return s.body.unassignedAt ? s.body : undefined;
    }, 15_000);
    expect(closed.unassignReason).toBe("asset_retired");
    expect((await outboxRows(t)).filter((e) => e.type === "licence_seat.released").map((e) => e.subjectId)).toEqual([
      seat.id,
    ]);
  });

  it("reports true-up, compliance and cost per year and department", async () => {
    const t = await createTenant();
    const product = await newProduct(t, { name: "CAD" });
    const lot = await newLot(t, product.id, {
      seats: 2,
      cost: 1200,
      currency: "EUR",
      renewal: "monthly",
      endDate: "2099-01-31",
    });
    const people = await Promise.all([
      seedPerson(t, { name: "A", department: "Design" }),
      seedPerson(t, { name: "B", department: "Design" }),
      seedPerson(t, { name: "C", department: "Sales" }),
    ]);
    for (const p of people.slice(0, 2)) expect((await assign(t, lot.id, { personId: p.id })).status).toBe(201);
    // Shrinking the lot below its seats is allowed and shows as over-assigned.
    expect((await api(t, `/licence-lots/${lot.id}`, { method: "PATCH", body: { seats: 1 } })).status).toBe(200);
    const trueUp = await api<Page<{ productId: string; seats: number; assigned: number; over: number }>>(
      t,
      "/licence-true-up",
    );
    expect(trueUp.body.items).toEqual([
      expect.objectContaining({ productId: product.id, seats: 1, assigned: 2, over: 1 }),
    ]);
    const over = await api<Page<{ lotId: string; overAssigned: number }>>(
      t,
      "/licence-reports/compliance?only=over_assigned",
    );
    expect(over.body.items.map((r) => [r.lotId, r.overAssigned])).toEqual([[lot.id, 1]]);
    expect((await api<Page<unknown>>(t, "/licence-reports/compliance?only=expiring")).body.items).toEqual([]);
    const cost = await api<{
      items: {
        annualCostMinor: number;
        byDepartment: { department: string; seats: number; annualCostMinor: number }[];
      }[];
    }>(t, "/licence-reports/cost");
    // 1,200.00 a month is 14,400.00 a year; a seat (now 1 of 1) costs the whole lot.
    expect(cost.body.items[0]!.annualCostMinor).toBe(1_440_000);
    expect(cost.body.items[0]!.byDepartment).toEqual([
      { department: "Design", seats: 2, annualCostMinor: 2 * 1_440_000 },
    ]);
  });

  it("an access review: the holder's manager or an admin keeps or revokes each seat; unreviewed ones are listed", async () => {
    const t = await createTenant();
    const managerUser = await createUser(t, "member");
    const stranger = await createUser(t, "member");
    const manager = await seedPerson(t, { name: "Boss", email: managerUser.email });
    const [a, b] = await Promise.all([
      seedPerson(t, { name: "A", managerId: manager.id }),
      seedPerson(t, { name: "B" }),
    ]);
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { seats: 5 });
    const sa = (await assign(t, lot.id, { personId: a.id })).body;
    const sb = (await assign(t, lot.id, { personId: b.id })).body;
    const opened = await api<Review>(t, `/licence-products/${product.id}/reviews`, { body: { dueDate: "2099-12-31" } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.items.map((i) => [i.seatId, i.reviewerPersonId]).sort()).toEqual(
      [
        [sa.id, manager.id],
        [sb.id, null],
      ].sort(),
    );
    const decide = (jwt: string, seatId: string, outcome: string) =>
      api<Review>(t, `/licence-reviews/${opened.body.id}/decisions`, {
        body: { decisions: [{ seatId, outcome }] },
        auth: { jwt },
      });
    expect((await decide(stranger.jwt, sa.id, "keep")).status).toBe(403);
    expect((await decide(managerUser.jwt, sb.id, "keep")).status).toBe(403); // B has no manager: admins decide
    const revoked = await decide(managerUser.jwt, sa.id, "revoke");
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await api<LicenceSeat>(t, `/licence-seats/${sa.id}`)).body.unassignReason).toBe("review_revoked");
    expect((await decide(managerUser.jwt, sa.id, "keep")).status).toBe(409);
    const unreviewed = await api<Review>(t, `/licence-reviews/${opened.body.id}?unreviewed=true`, {
      auth: { jwt: managerUser.jwt },
    });
    expect(unreviewed.body.items.map((i) => i.seatId)).toEqual([sb.id]);
    const admin = await createUser(t, "admin");
    const last = await decide(admin.jwt, sb.id, "keep");
    expect(last.body.status).toBe("closed");
    expect((await outboxRows(t)).filter((e) => e.type.startsWith("licence_review.")).map((e) => e.type)).toEqual([
      "licence_review.opened",
      "licence_review.decided",
      "licence_review.decided",
    ]);
  });

  it("a product goes to the trash, comes back, and is purged with its lots", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const lot = await newLot(t, product.id);
    const person = await seedPerson(t);
    const seat = (await assign(t, lot.id, { personId: person.id })).body;
    expect((await api(t, `/licence-products/${product.id}`, { method: "DELETE" })).status).toBe(409);
    await api(t, `/licence-seats/${seat.id}/unassign`, { method: "POST" });
    expect((await api(t, `/licence-products/${product.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/licence-products/${product.id}`)).status).toBe(404);
    const trash = await api<Page<{ type: string; id: string }>>(t, "/trash");
    expect(trash.body.items.map((i) => [i.type, i.id])).toContainEqual(["licence_product", product.id]);
    expect((await api(t, `/licence-products/${product.id}/restore`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/licence-products/${product.id}`, { method: "DELETE" })).status).toBe(204);
    const purged = await api<{ results: { error?: unknown }[] }>(t, "/trash/permanent-delete", {
      body: { items: [{ type: "licence_product", id: product.id }] },
    });
    expect(purged.status, JSON.stringify(purged.body)).toBe(200);
    expect(purged.body.results.filter((r) => r.error)).toEqual([]);
    expect((await api(t, `/licence-lots/${lot.id}`)).status).toBe(404);
  });
});
