import { describe, expect, it } from "vitest";
import type { StockCount, StockItem, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { startSession } from "../harness/sessions";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant } from "../harness/tenant";

type CountResult = { result: "counted" | "already_counted"; count: StockCount };

describe("counting stock in inventory sessions", () => {
  it("counts per item and location (a replayed scanId counts once), shows the variance, and applies it on completion", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const toner = await newStockItem(t);
    const paper = await newStockItem(t, { name: "Paper" });
    await receive(t, toner.id, a, 10);
    await receive(t, paper.id, a, 4);
    const session = await startSession(t);
    const count = (body: Record<string, unknown>) =>
      api<CountResult>(t, `/sessions/${session.id}/stock-counts`, { body });

    const first = await count({ itemId: toner.id, locationId: a, countedQuantity: 7, scanId: "c-1" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ result: "counted", count: { expected: 10, counted: 7, variance: -3 } });
    // The offline queue replays the same count: counted once.
    const replay = await count({ itemId: toner.id, locationId: a, countedQuantity: 7, scanId: "c-1" });
    expect(replay.body).toMatchObject({ result: "already_counted", count: { counted: 7 } });
    await count({ itemId: paper.id, locationId: a, countedQuantity: 4 });
    expect((await count({ itemId: "stk_nope", locationId: a, countedQuantity: 1 })).status).toBe(400);

    // A movement after the count is kept: the variance is added to the quantity at apply time.
    await receive(t, toner.id, a, 5);
    expect((await api(t, `/sessions/${session.id}/stock-counts/apply`, { method: "POST" })).status).toBe(409);
    const done = await api(t, `/sessions/${session.id}`, { method: "PATCH", body: { status: "completed" } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await count({ itemId: toner.id, locationId: a, countedQuantity: 1 })).status).toBe(409);

    const report = await api<Page<StockCount>>(t, `/sessions/${session.id}/stock-counts`);
    expect(report.body.items.map((c) => c.variance).sort()).toEqual([-3, 0]);
    const applied = await api<{ applied: StockMovement[] }>(t, `/sessions/${session.id}/stock-counts/apply`, {
      method: "POST",
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.applied).toEqual([
      expect.objectContaining({
        kind: "adjust",
        itemId: toner.id,
        quantity: 3,
        fromLocationId: a,
        sessionId: session.id,
      }),
    ]);
    expect((await api<StockItem>(t, `/stock-items/${toner.id}`)).body.onHand).toBe(12);
    // Applied once: a second apply writes nothing.
    const again = await api<{ applied: StockMovement[] }>(t, `/sessions/${session.id}/stock-counts/apply`, {
      method: "POST",
    });
    expect(again.body.applied).toEqual([]);
    const after = await api<Page<StockCount>>(t, `/sessions/${session.id}/stock-counts`);
    expect(after.body.items.find((c) => c.itemId === toner.id)!.appliedMovementId).toBe(applied.body.applied[0]!.id);
    expect((await move(t, toner.id, "adjust", { locationId: a, countedQuantity: 12, reason: "x" })).status).toBe(409);
  });
});
