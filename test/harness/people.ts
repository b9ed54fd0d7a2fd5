import { eq } from "drizzle-orm";
import { assets, assignments } from "../../src/db/tenant/assets";
import { newId } from "../../src/platform/ids";
import { dbOf } from "./tenant-db";
import { api, type TestTenant } from "./tenant";

/**
 * Arranges assets straight in the tenant database (independent of the assets API), for tests of
 * people and custom fields: a live asset in the default category and location.
 */
export async function insertAsset(t: TestTenant, over: Partial<typeof assets.$inferInsert> = {}): Promise<string> {
  const [cat, loc] = await Promise.all([api(t, "/categories/default"), api(t, "/locations/default")]);
  const now = new Date().toISOString();
  const id = newId("asset");
  await (await dbOf(t)).insert(assets).values({
    id, name: `Asset ${id.slice(-6)}`, uniqueTag: `TAG-${id.slice(-10)}`, categoryId: cat.body.id, locationId: loc.body.id, createdAt: now, updatedAt: now, ...over,
  });
  return id;
}

/** Puts an asset in a person's hands the way a checkout leaves it: assignee + status + one open assignment row. */
export async function assignDirectly(t: TestTenant, assetId: string, person: { id: string; name: string }, checkedOutAt = new Date().toISOString()) {
  const db = await dbOf(t);
  await db.update(assets).set({ status: "assigned", assigneeId: person.id, assignedAt: checkedOutAt }).where(eq(assets.id, assetId));
  const id = newId("assignment");
  await db.insert(assignments).values({ id, assetId, personId: person.id, personName: person.name, checkedOutAt, checkedOutBy: "test" });
  return id;
}
