import { describe, expect, it } from "vitest";
import type { Notification } from "../../src/modules/notifications";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { createUser, userJwt } from "../harness/principals";
import { connect } from "../harness/realtime";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant } from "../harness/tenant";

/** The `stock.low` notifications reach the admins' open sockets as they are created. */
describe("stock notifications in realtime", () => {
  it("a movement crossing below a reorder level pushes stock.low to every owner and admin, never to a member", async () => {
    const t = await createTenant();
    const ownerJwt = await userJwt(t);
    const admin = await createUser(t, "admin");
    const member = await createUser(t, "member");
    const a = await newLocation(t);
    const person = await seedPerson(t);
    const [owner, adm, mem] = [await connect(t, ownerJwt), await connect(t, admin.jwt), await connect(t, member.jwt)];
    // Created with a level above its 0 units: already crossed, pushed too.
    const item = await newStockItem(t, { name: "Toner", reorderLevel: 5 });
    for (const c of [owner, adm])
      expect((await c.next("notification.created")).notification!.data).toMatchObject({ itemId: item.id, quantity: 0 });
    await receive(t, item.id, a, 8); // restocked: an event, no notification

    expect((await move(t, item.id, "issue", { locationId: a, quantity: 4, personId: person.id })).status).toBe(201);
    for (const [client, jwt] of [
      [owner, ownerJwt],
      [adm, admin.jwt],
    ] as const) {
      const pushed = await client.next("notification.created");
      expect(pushed.notification).toMatchObject({
        type: "stock.low",
        title: "Low stock: Toner",
        read: false,
        data: { itemId: item.id, locationId: null, quantity: 4, reorderLevel: 5 },
      });
      const listed = await api<Page<Notification>>(t, "/notifications", { auth: { jwt } });
      expect(pushed.notification).toEqual(listed.body.items.find((n) => n.id === pushed.notification!.id));
    }

    // Still below: no second crossing, nothing pushed. A level per location crossing on its PUT pushes too.
    expect((await move(t, item.id, "issue", { locationId: a, quantity: 1, personId: person.id })).status).toBe(201);
    const set = await api(t, `/stock-items/${item.id}/levels/${a}`, { method: "PUT", body: { reorderLevel: 10 } });
    expect(set.status).toBe(200);
    const perLocation = await owner.next("notification.created");
    expect(perLocation.notification!.data).toMatchObject({ itemId: item.id, locationId: a, quantity: 3 });
    expect(owner.messages.filter((m) => m.type === "notification.created").length).toBe(3);
    expect(mem.messages.map((m) => m.type)).toEqual(["ready"]);
    for (const c of [owner, adm, mem]) c.ws.close(1000, "done");
  });
});
