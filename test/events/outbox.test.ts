import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Category } from "../../src/modules/categories";
import { eventually, outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";
import { failingQueue, fetchAndSettle } from "../harness/worker";

describe("outbox", () => {
  it("records exactly one event per write, with the resource as payload", async () => {
    const t = await createTenant();
    const before = await outboxRows(t);
    const created = await api<Category>(t, "/categories", { body: { name: "Laptops", expectedLifeMonths: 36 } });
    expect(created.status).toBe(201);

    const rows = (await outboxRows(t)).filter((r) => !before.some((b) => b.id === r.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: "category.created",
      subjectId: created.body.id,
      actor: expect.stringMatching(/^key_/),
    });
    expect(rows[0]!.payload).toEqual(created.body);
    expect(rows[0]!.payload).toEqual((await api(t, `/categories/${created.body.id}`)).body);

    const updated = await api<Category>(t, `/categories/${created.body.id}`, {
      method: "PATCH",
      body: { description: "Work laptops" },
    });
    const [upd] = await outboxRows(t, { type: "category.updated" });
    expect(upd!.payload).toEqual({ ...updated.body, changes: ["description"] });
  });

  it("writes no event when the write fails or changes nothing", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories", { body: { name: "Cables" } })).body;
    const count = (await outboxRows(t)).length;
    expect((await api(t, "/categories", { body: { name: "CABLES" } })).status).toBe(409); // unique index aborts the whole batch
    expect((await api(t, "/categories", { body: { name: "" } })).status).toBe(400);
    expect((await api(t, `/categories/${cat.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/categories/${cat.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(t, `/categories/${cat.id}/restore`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/categories/${cat.id}/restore`, { method: "POST" })).status).toBe(404);
    const types = (await outboxRows(t))
      .slice(count)
      .map((r) => r.type)
      .sort();
    expect(types).toEqual(["category.deleted", "category.restored"]);
  });

  it("dispatches the outbox to the Queue after the response", async () => {
    const t = await createTenant();
    const res = await fetchAndSettle(t, "/categories", { method: "POST", body: { name: "Docks" } });
    expect(res.status).toBe(201);
    const [row] = await outboxRows(t, { subjectId: res.body.id as string });
    expect(row!.dispatchedAt).toEqual(expect.any(String));
    // The local Queue delivers it to the Worker's consumer, which marks it consumed.
    const consumed = await eventually(
      async () => (await outboxRows(t, { subjectId: res.body.id as string }))[0]?.consumedAt ?? undefined,
    );
    expect(consumed >= row!.dispatchedAt!).toBe(true);
  });

  it("keeps the write and leaves the event pending when the Queue send fails", async () => {
    const t = await createTenant();
    const res = await fetchAndSettle(
      t,
      "/categories",
      { method: "POST", body: { name: "Chargers" } },
      { ...env, EVENTS: failingQueue },
    );
    expect(res.status).toBe(201);
    expect((await api(t, `/categories/${res.body.id}`)).status).toBe(200);
    const [row] = await outboxRows(t, { subjectId: res.body.id as string });
    expect(row).toMatchObject({ type: "category.created", dispatchedAt: null, consumedAt: null });
  });

  it("does not dispatch after a read or a write that records no event", async () => {
    const t = await createTenant();
    const failing = await fetchAndSettle(
      t,
      "/categories",
      { method: "POST", body: { name: "Pending" } },
      { ...env, EVENTS: failingQueue },
    );
    await fetchAndSettle(t, "/categories", { method: "GET" });
    const [row] = await outboxRows(t, { subjectId: failing.body.id as string });
    expect(row!.dispatchedAt).toBeNull();
    // A write that records no event does not drain (scans, sign-in: no outbox read on their path)...
    await fetchAndSettle(t, "/categories", { method: "POST", body: { name: "" } });
    expect((await outboxRows(t, { subjectId: failing.body.id as string }))[0]!.dispatchedAt).toBeNull();
    // ...the next write with an event drains everything pending, its own event and the earlier one.
    await fetchAndSettle(t, "/categories", { method: "POST", body: { name: "Next" } });
    expect((await outboxRows(t)).filter((r) => r.dispatchedAt === null)).toEqual([]);
  });
});
