import { describe, expect, it } from "vitest";
import { assetTimeline, assignments } from "../../src/db/tenant/assets";
import type { Tt10Report } from "../../src/modules/analytics";
import { newId } from "../../src/platform/ids";
import { adminApi, adminSignIn } from "../harness/admin";
import { createUser } from "../harness/principals";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const at = (base: string, minutes: number) => new Date(Date.parse(base) + minutes * 60_000).toISOString();

/** A CREATED timeline entry by `userId` at `createdAt`, then `n` checkouts by them, one per `stepMinutes`. */
async function activity(t: TestTenant, userId: string, createdAt: string, n: number, stepMinutes: number) {
  const db = await dbOf(t);
  await db
    .insert(assetTimeline)
    .values({ id: newId("timeline"), assetId: "ast_x", type: "CREATED", actor: userId, at: createdAt, data: {} })
    .run();
  for (let i = 1; i <= n; i++) {
    await db
      .insert(assignments)
      .values({
        id: newId("assignment"),
        assetId: `ast_${i}`,
        personId: "per_x",
        personName: "P",
        checkedOutAt: at(createdAt, i * stepMinutes),
        checkedOutBy: userId,
        checkedInAt: at(createdAt, i * stepMinutes + 1),
      })
      .run();
  }
}

describe("GET /admin/tenants/:tenantId/tt10-report", () => {
  it("lists every user with first creation, tenth assignment, tt10Minutes and meetsTarget", async () => {
    const t = await createTenant();
    const fast = await createUser(t, "member");
    const slow = await createUser(t, "admin");
    const base = "2026-03-01T09:00:00.000Z";
    await activity(t, fast.id, base, 12, 0.5); // tenth at +5 min
    await activity(t, slow.id, base, 10, 3); // tenth at +30 min
    const cookie = await adminSignIn();
    const res = await adminApi<Tt10Report>(cookie, `/admin/tenants/${t.id}/tt10-report`);
    expect(res.status).toBe(200);
    const by = Object.fromEntries(res.body.items.map((e) => [e.userId, e]));
    expect(Object.keys(by).sort()).toEqual([t.owner.id, fast.id, slow.id].sort());
    expect(by[fast.id]).toMatchObject({
      firstAssetCreatedAt: base,
      tenthAssignedAt: at(base, 5),
      tt10Minutes: 5,
      meetsTarget: true,
    });
    expect(by[slow.id]).toMatchObject({ tt10Minutes: 30, meetsTarget: false });
    expect(by[t.owner.id]).toMatchObject({
      firstAssetCreatedAt: null,
      tenthAssignedAt: null,
      tt10Minutes: null,
      meetsTarget: false,
    });

    // The range cuts the activity: from +2 min the fast user has only eight checkouts left.
    const later = await adminApi<Tt10Report>(
      cookie,
      `/admin/tenants/${t.id}/tt10-report?from=${at(base, 2)}&to=2026-04-01T00:00:00Z`,
    );
    const fastLater = later.body.items.find((e) => e.userId === fast.id);
    expect(fastLater).toMatchObject({
      firstAssetCreatedAt: null,
      tenthAssignedAt: null,
      tt10Minutes: null,
      meetsTarget: false,
    });

    const page = await adminApi<Tt10Report>(cookie, `/admin/tenants/${t.id}/tt10-report?limit=2`);
    expect(page.body.items).toHaveLength(2);
    const rest = await adminApi<Tt10Report>(
      cookie,
      `/admin/tenants/${t.id}/tt10-report?limit=2&cursor=${page.body.nextCursor}`,
    );
    expect(rest.body.items).toHaveLength(1);
  });

  it("validates from/to (400) and answers 404 for an unknown workspace", async () => {
    const t = await createTenant();
    const cookie = await adminSignIn();
    for (const q of [
      "from=yesterday",
      "to=2026-13-01T00:00:00Z",
      "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
    ]) {
      const res = await adminApi<Tt10Report>(cookie, `/admin/tenants/${t.id}/tt10-report?${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await adminApi(cookie, "/admin/tenants/ten_00000000000000000000000000/tt10-report")).status).toBe(404);
    expect((await adminApi(null, `/admin/tenants/${t.id}/tt10-report`)).status).toBe(401);
  });
});
