import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env";
import { dispatchOutbox } from "../../src/events/dispatch";
import { recordEvents } from "../../src/events/outbox";
import type { EventMessage } from "../../src/events/types";
import { findTenantById } from "../../src/tenancy/registry";
import { outboxRows } from "../harness/outbox";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { failingQueue } from "../harness/worker";

/** A Queue that records the event ids sent to it, after a pause (so racing drains overlap). */
function slowQueue() {
  const ids: string[] = [];
  const queue = {
    sendBatch: async (msgs: Iterable<MessageSendRequest<EventMessage>>) => {
      await new Promise((r) => setTimeout(r, 20));
      ids.push(...[...msgs].map((m) => m.body.eventId));
    },
  } as unknown as Queue<EventMessage>;
  return { ids, queue };
}

describe("outbox drain claims before it sends", () => {
  it("drains racing after concurrent writes send each event once between them", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const [insert] = recordEvents(
      db,
      Array.from({ length: 30 }, (_, i) => ({ type: "test.event", subjectId: `sub_${i}`, payload: { i } })),
    );
    await insert!.run();
    const tenant = (await findTenantById(env, t.id))!;
    const { ids, queue } = slowQueue();
    const drains = await Promise.all(
      Array.from({ length: 4 }, () => dispatchOutbox({ ...env, EVENTS: queue } as Bindings, tenant, db)),
    );
    const pending = (await outboxRows(t)).filter((r) => r.type === "test.event");
    expect(drains.reduce((a, b) => a + b, 0)).toBe(30);
    expect(ids).toHaveLength(30);
    expect(new Set(ids)).toEqual(new Set(pending.map((r) => r.id)));
    expect(pending.every((r) => r.dispatchedAt !== null)).toBe(true);
  });

  it("a failed send leaves the claimed events pending for the sweep", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const [insert] = recordEvents(db, [{ type: "test.event", payload: { n: 1 } }]);
    await insert!.run();
    const tenant = (await findTenantById(env, t.id))!;
    await expect(dispatchOutbox({ ...env, EVENTS: failingQueue } as Bindings, tenant, db)).rejects.toThrow(
      "queue unavailable",
    );
    const [row] = (await outboxRows(t)).filter((r) => r.type === "test.event");
    expect(row!.dispatchedAt).toBeNull();
    const { ids, queue } = slowQueue();
    expect(await dispatchOutbox({ ...env, EVENTS: queue } as Bindings, tenant, db)).toBe(1);
    expect(ids).toEqual([row!.id]);
  });
});
