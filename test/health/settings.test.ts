import { describe, expect, it } from "vitest";
import type { AssetHealth, HealthSettings } from "../../src/domain/health-engine";
import { INLINE_ROWS } from "../../src/domain/health-engine/hooks";
import { PRESETS } from "../../src/domain/health-engine/presets";
import { refreshHealth } from "../../src/domain/health-engine/recompute";
import type { InventoryItem } from "../../src/modules/assets";
import { basisOfTenant, devCall, storedHealth, storedVsFresh } from "../harness/health";
import { createUser, userJwt } from "../harness/principals";
import { seedAssets } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe("GET/PUT /settings/health", () => {
  it("defaults to balanced and documents every preset", async () => {
    const t = await createTenant();
    const res = await api(t, "/settings/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sensitivity: "balanced", presets: PRESETS, rescore: { pending: 0 } });
  });

  it("only owners and admins change it, with a JWT; bad values are 400", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const admin = await createUser(t, "admin");
    expect((await api(t, "/settings/health", { method: "PUT", body: { sensitivity: "strict" } })).status).toBe(403); // API key
    expect(
      (await api(t, "/settings/health", { method: "PUT", body: { sensitivity: "strict" }, auth: { jwt: member.jwt } }))
        .status,
    ).toBe(403);
    for (const body of [{ sensitivity: "paranoid" }, {}, { sensitivity: "strict", extra: 1 }]) {
      expect((await api(t, "/settings/health", { method: "PUT", body, auth: { jwt: admin.jwt } })).status).toBe(400);
    }
    const ok = await api<HealthSettings>(t, "/settings/health", {
      method: "PUT",
      body: { sensitivity: "relaxed" },
      auth: { jwt: admin.jwt },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.sensitivity).toBe("relaxed");
    expect((await api<HealthSettings>(t, "/settings/health")).body.sensitivity).toBe("relaxed");
  });

  it("changing it re-scores the workspace's assets", async () => {
    const t = await createTenant();
    const created = await api<InventoryItem>(t, "/inventory-items", { body: { name: "Pump" } });
    const id = created.body.id as string;
    const sched = await api(t, "/maintenance/schedules", {
      body: { itemId: id, title: "Filter change", type: "service", nextDueDate: inDays(10) },
    });
    expect(sched.status, JSON.stringify(sched.body)).toBe(201);
    expect((await api<AssetHealth>(t, `/inventory-items/${id}/health`)).body.reasons).toEqual([]);
    const res = await api<HealthSettings>(t, "/settings/health", {
      method: "PUT",
      body: { sensitivity: "strict" },
      auth: { jwt: await userJwt(t) },
    });
    expect(res.status).toBe(200);
    expect(res.body.rescore.pending).toBe(0);
    const row = await storedHealth(t, id);
    expect(row).toMatchObject({ basis: "strict|UTC", dirty: false, score: 85, badge: "ATTENTION" });
    expect(row!.reasons.map((r) => r.code)).toEqual(["MAINTENANCE_DUE_SOON"]);
    const cmp = await storedVsFresh(t, id);
    expect(cmp.stored).toEqual(cmp.fresh);
  });

  it("a big workspace is re-scored in chunks: the rest after the response, counted down in rescore.pending", async () => {
    const t = await createTenant();
    const ids = (await seedAssets(t, INLINE_ROWS + 300)).map((a) => a.id);
    await refreshHealth(await dbOf(t), ids, await basisOfTenant(t));
    const res = await devCall<HealthSettings>(t, "/settings/health", {
      method: "PUT",
      body: { sensitivity: "strict" },
      authorization: `Bearer ${await userJwt(t)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.rescore.pending).toBe(300); // answered after the inline chunk; devCall then waits for the background drain
    expect((await api<HealthSettings>(t, "/settings/health")).body.rescore.pending).toBe(0);
    for (const id of [ids[0]!, ids[ids.length - 1]!]) expect((await storedHealth(t, id))?.basis).toBe("strict|UTC");
  });
});
