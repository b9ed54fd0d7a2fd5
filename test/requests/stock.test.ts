import { describe, expect, it } from "vitest";
import type { Request } from "../../src/modules/requests";
import type { StockItem, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { ask, asset, inbox, inDays, requester } from "../harness/requests-helpers";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";

type Failure = ErrorBody & { details: Record<string, unknown> & { path?: string }[] };

const issues = async (t: TestTenant, itemId: string) =>
  (await api<Page<StockMovement>>(t, `/stock-items/${itemId}/movements?kind=issue&limit=100`)).body.items;
const onHand = async (t: TestTenant, itemId: string) => (await api<StockItem>(t, `/stock-items/${itemId}`)).body.onHand;
const approve = (t: TestTenant, jwt: string, id: string, body: Record<string, unknown> = {}) =>
  api<Request>(t, `/requests/${id}/approve`, { body, auth: { jwt } });

describe("stock requests", () => {
  it("refuses a body without exactly one target, a window, a due date and a bad quantity (400)", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const item = await newStockItem(t, { requestable: true });
    const cam = await asset(t, "Camera");
    const loc = await newLocation(t);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /exactly one of assetId, kitId or stockItemId/],
      [{ assetId: cam.id, stockItemId: item.id, quantity: 1 }, /exactly one of assetId, kitId or stockItemId/],
      [{ stockItemId: item.id }, /quantity goes with stockItemId/],
      [{ assetId: cam.id, quantity: 1 }, /quantity goes with stockItemId/],
      [{ assetId: cam.id, locationId: loc }, /locationId is for a stock request/],
      [{ stockItemId: item.id, quantity: 1, startsAt: inDays(1), endsAt: inDays(2) }, /stock is not booked/],
      [{ stockItemId: item.id, quantity: 1, dueBackAt: inDays(1) }, /no due date/],
      [{ stockItemId: item.id, quantity: 0 }, /quantity/],
      [{ stockItemId: item.id, quantity: 1.5 }, /quantity/],
      [{ stockItemId: item.id, quantity: 10_001 }, /quantity/],
      [{ stockItemId: item.id, quantity: "2" }, /quantity/],
    ];
    for (const [body, message] of cases) {
      const res = await api<Failure>(t, "/requests", { body, auth: { jwt: rae.jwt } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.details), JSON.stringify(body)).toMatch(message);
    }
    // Not requestable (for every role), deleted, unknown location: 400 naming the field.
    const closed = await newStockItem(t, { name: "Closed" });
    const gone = await newStockItem(t, { name: "Gone", requestable: true });
    expect((await api(t, `/stock-items/${gone.id}`, { method: "DELETE" })).status).toBe(204);
    for (const [body, field] of [
      [{ stockItemId: closed.id, quantity: 1 }, "body.stockItemId"],
      [{ stockItemId: gone.id, quantity: 1 }, "body.stockItemId"],
      [{ stockItemId: item.id, quantity: 1, locationId: "loc_nope" }, "body.locationId"],
    ] as const) {
      const res = await api<Failure>(t, "/requests", { body, auth: { jwt: rae.jwt } });
      expect(res.status).toBe(400);
      expect(res.body.details[0]!.path).toBe(field);
    }
    const admin = await createUser(t, "admin");
    const asAdmin = await api(t, "/requests", {
      body: { stockItemId: closed.id, quantity: 1 },
      auth: { jwt: admin.jwt },
    });
    expect(asAdmin.status).toBe(400);
    expect(await issues(t, item.id)).toEqual([]);
  });

  it("approval issues the quantity to the requester in the same write; events and notifications carry it", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const loc = await newLocation(t);
    const toner = await newStockItem(t, { requestable: true });
    await receive(t, toner.id, loc, 10);
    const r = await ask(t, rae, { stockItemId: toner.id, quantity: 3, note: "printer 2" });
    expect(r).toMatchObject({ kind: "issue", status: "open", stockItemId: toner.id, quantity: 3, locationId: null });
    const created = (await inbox(t, admin.id)).at(-1)!;
    expect(created.data).toMatchObject({ requestId: r.id, stockItemId: toner.id, quantity: 3 });
    expect(created.message).toContain(`3 of stock item ${toner.id}`);

    const ok = await approve(t, admin.jwt, r.id, { note: "there you go" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: "approved", locationId: loc, stockMovementId: expect.any(String) });
    const [issue, ...more] = await issues(t, toner.id);
    expect(more).toEqual([]);
    expect(issue).toMatchObject({
      id: ok.body.stockMovementId,
      personId: rae.personId,
      quantity: 3,
      fromLocationId: loc,
      returnable: false,
      openQuantity: null,
      note: `Request ${r.id}`,
    });
    expect(await onHand(t, toner.id)).toBe(7);
    expect((await inbox(t, rae.id)).at(-1)!.data).toMatchObject({ stockItemId: toner.id, quantity: 3 });
    const events = await outboxRows(t, { subjectId: r.id });
    expect(events.map((e) => e.type)).toEqual(["request.created", "request.approved"]);
    expect(events[1]!.payload).toMatchObject({ stockItemId: toner.id, quantity: 3, stockMovementId: issue!.id });
    expect(await outboxRows(t, { subjectId: toner.id, type: "stock.issued" })).toHaveLength(1);

    // A returnable item stays out on an open issue, which the requester sees among its holdings.
    const drill = await newStockItem(t, { name: "Drill", requestable: true, returnable: true });
    await receive(t, drill.id, loc, 2);
    const r2 = await ask(t, rae, { stockItemId: drill.id, quantity: 1 });
    expect((await approve(t, admin.jwt, r2.id)).status).toBe(200);
    const held = await api<Page<StockMovement>>(t, `/people/${rae.personId}/stock`, { auth: { jwt: rae.jwt } });
    expect(held.body.items).toMatchObject([{ itemId: drill.id, openQuantity: 1, returnable: true }]);
  });

  it("not enough on hand: 409 naming it, the request stays open; a location asked for or chosen by the approver", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const item = await newStockItem(t, { requestable: true });
    await receive(t, item.id, a, 3);
    await receive(t, item.id, b, 4);
    const r = await ask(t, rae, { stockItemId: item.id, quantity: 5 });
    const short = await approve(t, admin.jwt, r.id);
    expect(short.status).toBe(409);
    const failure = short.body as unknown as Failure;
    expect(failure.message).toMatch(/7 box .* on hand, at most 4 at/);
    expect(failure.details).toMatchObject({ reason: "short", onHand: 7, available: 4, locationId: b, requested: 5 });
    expect((await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body.status).toBe("open");
    // The approver names a location: the ledger's guard answers for it.
    const there = await approve(t, admin.jwt, r.id, { locationId: a });
    expect(there.status).toBe(409);
    expect((there.body as unknown as Failure).details).toMatchObject({ locationId: a, available: 3, requested: 5 });
    expect((await approve(t, admin.jwt, r.id, { locationId: "loc_nope" })).status).toBe(400);
    await receive(t, item.id, a, 2);
    expect((await approve(t, admin.jwt, r.id, { locationId: a })).body).toMatchObject({ locationId: a });
    expect(await onHand(t, item.id)).toBe(4);

    // Asked from B: issued from B although A has more; without one, the fullest location.
    const fromB = await ask(t, rae, { stockItemId: item.id, quantity: 1, locationId: b });
    expect((await approve(t, admin.jwt, fromB.id)).body.locationId).toBe(b);
    await receive(t, item.id, a, 5);
    const any = await ask(t, rae, { stockItemId: item.id, quantity: 1 });
    expect((await approve(t, admin.jwt, any.id)).body.locationId).toBe(a);
    // An asset request is not issued from a location.
    const cam = await ask(t, rae, { assetId: (await asset(t, "Camera")).id });
    expect((await approve(t, admin.jwt, cam.id, { locationId: a })).status).toBe(400);

    // The item deleted meanwhile: no longer available (409), the request stays open.
    const gone = await newStockItem(t, { name: "Gone", requestable: true });
    await receive(t, gone.id, a, 1);
    const late = await ask(t, rae, { stockItemId: gone.id, quantity: 1 });
    expect((await api(t, `/stock-items/${gone.id}`, { method: "DELETE" })).status).toBe(204);
    const refused = await approve(t, admin.jwt, late.id);
    expect(refused.status).toBe(409);
    expect((refused.body as unknown as Failure).details).toMatchObject({ reason: "unavailable" });
    expect((await api<Request>(t, `/requests/${late.id}`, { auth: { jwt: rae.jwt } })).body.status).toBe("open");
  });

  it("two admins approving at once: exactly one issue", async () => {
    const t = await createTenant();
    const [a1, a2] = [await createUser(t, "admin"), await createUser(t, "admin")];
    const rae = await requester(t);
    const loc = await newLocation(t);
    const item = await newStockItem(t, { requestable: true });
    await receive(t, item.id, loc, 9);
    for (let i = 0; i < 3; i++) {
      const r = await ask(t, rae, { stockItemId: item.id, quantity: 3 });
      const answers = await Promise.all([approve(t, a1.jwt, r.id), approve(t, a2.jwt, r.id)]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
      const loser = answers.find((x) => x.status === 409)!.body as unknown as Failure;
      expect(loser.details).toMatchObject({ status: "approved" });
      expect(await issues(t, item.id)).toHaveLength(i + 1);
      expect(await onHand(t, item.id)).toBe(9 - 3 * (i + 1));
      expect((await outboxRows(t, { subjectId: r.id, type: "request.approved" })).length).toBe(1);
    }
  });

  it("approval racing a direct issue of the last units: exactly one wins; a losing approval leaves it open", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const other = await seedPerson(t);
    const loc = await newLocation(t);
    const item = await newStockItem(t, { requestable: true });
    for (let i = 0; i < 3; i++) {
      await receive(t, item.id, loc, 2);
      const r = await ask(t, rae, { stockItemId: item.id, quantity: 2 });
      const [approval, direct] = await Promise.all([
        approve(t, admin.jwt, r.id),
        move(t, item.id, "issue", { locationId: loc, quantity: 2, personId: other.id }),
      ]);
      expect([approval.status === 200, direct.status === 201].filter(Boolean)).toHaveLength(1);
      expect([approval.status, direct.status]).toContain(409);
      const status = (await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body.status;
      expect(status).toBe(approval.status === 200 ? "approved" : "open");
      if (approval.status === 409) expect((approval.body as unknown as Failure).message).toMatch(/Not enough stock/);
      expect(await onHand(t, item.id)).toBe(0);
      expect(await issues(t, item.id)).toHaveLength(i + 1);
      if (status === "open")
        expect((await api(t, `/requests/${r.id}/decline`, { body: {}, auth: { jwt: admin.jwt } })).status).toBe(200);
    }
  });
});
