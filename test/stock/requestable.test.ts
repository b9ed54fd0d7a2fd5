import { describe, expect, it } from "vitest";
import type { StockItem } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { requester } from "../harness/requests-helpers";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";

const ids = async (t: TestTenant, path: string, jwt?: string) => {
  const res = await api<Page<StockItem>>(t, path, jwt ? { auth: { jwt } } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((i) => i.id).sort();
};

describe("requestable stock items", () => {
  it("the flag: default false, set on create and PATCH, a list filter, and the sync list (live, deleted, purged)", async () => {
    const t = await createTenant();
    const plain = await newStockItem(t, { name: "Cable" });
    const open = await newStockItem(t, { name: "Toner", requestable: true });
    expect(plain.requestable).toBe(false);
    expect(open.requestable).toBe(true);
    expect(await ids(t, "/stock-items?requestable=true")).toEqual([open.id]);
    expect(await ids(t, "/stock-items?requestable=false")).toEqual([plain.id]);
    expect((await api(t, "/stock-items?requestable=yes")).status).toBe(400);
    expect((await api(t, "/stock-items", { body: { name: "X", requestable: "yes" } })).status).toBe(400);

    const since = new Date(Date.now() - 60_000).toISOString();
    const patched = await api<StockItem>(t, `/stock-items/${plain.id}`, {
      method: "PATCH",
      body: { requestable: true },
    });
    expect(patched.body.requestable).toBe(true);
    expect(await ids(t, "/stock-items?requestable=true")).toEqual([open.id, plain.id].sort());
    expect((await api(t, `/stock-items/${open.id}`, { method: "DELETE" })).status).toBe(204);
    const sync = await api<Page<StockItem & { deletedAt: string | null }>>(
      t,
      `/stock-items?updatedSince=${since}&requestable=true`,
    );
    expect(sync.body.items.map((i) => [i.id, i.requestable, i.deletedAt !== null]).sort()).toEqual(
      [
        [open.id, true, true],
        [plain.id, true, false],
      ].sort(),
    );
    // A purged item's tombstone keeps its last flag.
    const purged = await api(t, "/trash/permanent-delete", { body: { items: [{ type: "stock_item", id: open.id }] } });
    expect(purged.status).toBe(200);
    expect(await ids(t, `/stock-items?updatedSince=${since}&requestable=true`)).toEqual([open.id, plain.id].sort());
    expect(await ids(t, `/stock-items?updatedSince=${since}&requestable=false`)).toEqual([]);
  });

  it("the self-service role lists and reads requestable items only, and its own holdings; nothing else of stock", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const other = await seedPerson(t);
    const loc = await newLocation(t);
    const open = await newStockItem(t, { name: "Toner", requestable: true, returnable: true });
    const closed = await newStockItem(t, { name: "Server RAM" });
    await receive(t, open.id, loc, 5);
    const issued = await move(t, open.id, "issue", { locationId: loc, quantity: 1, personId: rae.personId });
    expect(issued.status).toBe(201);

    expect(await ids(t, "/stock-items", rae.jwt)).toEqual([open.id]);
    // Its filter cannot widen the list.
    expect(await ids(t, "/stock-items?requestable=false", rae.jwt)).toEqual([]);
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await ids(t, `/stock-items?updatedSince=${since}`, rae.jwt)).toEqual([open.id]);
    const auth = { jwt: rae.jwt };
    expect((await api<StockItem>(t, `/stock-items/${open.id}`, { auth })).body).toMatchObject({
      id: open.id,
      onHand: 4,
    });
    expect((await api(t, `/stock-items/${closed.id}`, { auth })).status).toBe(404);

    // Its own holdings, nobody else's.
    const mine = await api<Page<{ id: string }>>(t, `/people/${rae.personId}/stock`, { auth });
    expect(mine.body.items.map((m) => m.id)).toEqual([issued.body.movement.id]);
    expect((await api(t, `/people/${other.id}/stock`, { auth })).status).toBe(404);

    // Movements, levels and every write: 403.
    for (const [path, body] of [
      [`/stock-items/${open.id}/movements`, undefined],
      [`/stock-items/${open.id}/levels`, undefined],
      ["/stock-movements", undefined],
      [`/stock-movements/${issued.body.movement.id}`, undefined],
      [`/stock-items/${open.id}/issue`, { locationId: loc, quantity: 1, personId: rae.personId }],
      ["/stock-items", { name: "Mine" }],
    ] as const)
      expect((await api(t, path, { auth, ...(body ? { body } : {}) })).status, path).toBe(403);
    expect((await api(t, `/stock-items/${open.id}`, { method: "PATCH", body: { name: "X" }, auth })).status).toBe(403);
  });
});
