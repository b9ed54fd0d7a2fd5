import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { scanEvents } from "../../src/db/tenant/sessions";
import type { InventorySession } from "../../src/domain/inventory-session/inventory-session";
import { scan, seedAssets, sessionApi, sessionStub, startSession } from "../harness/sessions";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const unflushed = (state: DurableObjectState) =>
  state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM scans WHERE dirty > 0`).one().n;

/**
 * A session object writes through only into the database its workspace owns now: its scans reach
 * D1 after them (an alarm), by which time the workspace may be deleting, or moving to another shard.
 */
describe("write-through into the workspace's own database", () => {
  it("writes nothing for a workspace being deleted (its database is wiped, then another workspace's)", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const s = await startSession(t);
    await scan(t, s.id, { itemId: a!.id });
    const status = (value: "deleting" | "active") =>
      env.CONTROL_DB.prepare("UPDATE tenants SET status = ? WHERE id = ?").bind(value, t.id).run();
    const written = async () => (await dbOf(t)).$count(scanEvents, eq(scanEvents.sessionId, s.id));

    await status("deleting");
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    await runDurableObjectAlarm(sessionStub(t, s.id));
    expect(await written()).toBe(0);
    // The same object writes as usual for a live workspace (the scan was kept, not lost).
    await status("active");
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    expect(await written()).toBe(1);
  });

  it("writes only into the database the registry names on this shard (a move's switch), and keeps the scans until it does", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const s = await startSession(t);
    await scan(t, s.id, { itemId: a!.id });
    const row = (shard: string, binding: string) =>
      env.CONTROL_DB.prepare("UPDATE tenants SET shard = ?, db_binding = ? WHERE id = ?")
        .bind(shard, binding, t.id)
        .run();
    const { db_binding: binding } = (await env.CONTROL_DB.prepare("SELECT db_binding FROM tenants WHERE id = ?")
      .bind(t.id)
      .first<{ db_binding: string }>())!;
    const db = await dbOf(t);
    const written = () => db.$count(scanEvents, eq(scanEvents.sessionId, s.id));

    // The registry names another shard, then another database of this shard: nothing is written, nothing dropped.
    try {
      for (const [shard, other] of [
        ["s9", binding],
        ["main", binding === "TENANT_DB_T064" ? "TENANT_DB_T063" : "TENANT_DB_T064"],
      ] as const) {
        await row(shard, other);
        expect(await sessionApi(t, s.id).flush()).toEqual({ ok: false });
        expect(await written()).toBe(0);
        expect(await runInDurableObject(sessionStub(t, s.id), (_o: InventorySession, st) => unflushed(st))).toBe(1);
      }
    } finally {
      await row("main", binding);
    }
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    expect(await written()).toBe(1);
  });
});
