import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { quickAddEvents } from "../../src/db/tenant/quick-add";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, userJwt } from "../harness/principals";
import { insertAsset } from "../harness/rows";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const PATH = "/inventory-items/quick-add/events";

describe("POST /inventory-items/quick-add/events", () => {
  it("stores each of the four events per user and flow", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const member = await createUser(t, "member");
    const item = await insertAsset(t, { name: "Quick" });
    for (const event of ["quick_add_opened", "asset_created_quick", "asset_assigned", "advanced_opened"]) {
      const res = await api(t, PATH, {
        auth: { jwt },
        body: {
          event,
          flowId: "flow-1",
          ...(event === "asset_assigned" ? { itemId: item.id, meta: { source: "scan" } } : {}),
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ event, flowId: "flow-1", userId: t.owner.id });
    }
    expect(
      (await api(t, PATH, { auth: { jwt: member.jwt }, body: { event: "quick_add_opened", flowId: "flow-1" } })).status,
    ).toBe(201);
    const db = await dbOf(t);
    const owners = await db
      .select()
      .from(quickAddEvents)
      .where(and(eq(quickAddEvents.userId, t.owner.id), eq(quickAddEvents.flowId, "flow-1")))
      .all();
    expect(owners.map((r) => r.event)).toEqual([
      "quick_add_opened",
      "asset_created_quick",
      "asset_assigned",
      "advanced_opened",
    ]);
    expect(owners[2]).toMatchObject({ itemId: item.id, meta: { source: "scan" } });
    const members = await db.select().from(quickAddEvents).where(eq(quickAddEvents.userId, member.id)).all();
    expect(members).toHaveLength(1);
  });

  it("refuses unknown events, a missing flowId and an oversized meta (400), and API keys (403)", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const bad = [
      { event: "nope", flowId: "f" },
      { event: "quick_add_opened" },
      { event: "quick_add_opened", flowId: "f", meta: { blob: "x".repeat(3000) } },
    ];
    for (const body of bad) {
      const res = await api<ErrorBody>(t, PATH, { auth: { jwt }, body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    const key = await api(t, PATH, { body: { event: "quick_add_opened", flowId: "f" } });
    expect(key.status).toBe(403);
    expect(await (await dbOf(t)).select().from(quickAddEvents).all()).toHaveLength(0);
  });
});
