import { count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { assetStatusEvents, assets, assetTimeline, assignments } from "../../src/db/tenant/assets";
import { auditLog } from "../../src/db/tenant/audit";
import { outbox } from "../../src/db/tenant/outbox";
import type { AllowedStatusTransitions, InventoryItem } from "../../src/modules/assets";
import { api, type Failure, type TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

/** The 409 of a move the lifecycle table does not allow: its details list the moves that are. */
export type ForbiddenMove = Failure<{
  fromStatus: string;
  toStatus: string;
  allowed: AllowedStatusTransitions["allowed"];
}>;

/** Creates an asset through the API and returns its body. */
export async function createAsset(t: TestTenant, body: Record<string, unknown> = {}) {
  const res = await api<InventoryItem>(t, "/inventory-items", { body: { name: "MacBook Pro 14", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Row counts of every table an asset write touches, to prove a refused request wrote nothing. */
export async function writeCounts(t: TestTenant) {
  const db = await dbOf(t);
  const n = async (
    table:
      | typeof assets
      | typeof assetTimeline
      | typeof auditLog
      | typeof outbox
      | typeof assignments
      | typeof assetStatusEvents,
  ) => (await db.select({ n: count() }).from(table).get())?.n ?? 0;
  return {
    assets: await n(assets),
    timeline: await n(assetTimeline),
    audit: await n(auditLog),
    outbox: await n(outbox),
    assignments: await n(assignments),
    statusEvents: await n(assetStatusEvents),
  };
}

export async function assetRow(t: TestTenant, id: string) {
  return (await dbOf(t)).select().from(assets).where(eq(assets.id, id)).get();
}
