import { eq } from "drizzle-orm";
import { assets, assignments } from "../../src/db/tenant/assets";
import { people } from "../../src/db/tenant/people";
import { newId } from "../../src/platform/ids";
import { insertAsset as insertAssetRow } from "./rows";
import type { TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

// People and held assets written straight into the tenant database, for tests that must not
// depend on the people API (assets tests) or the assets API (people tests).

type PersonSeed = Partial<typeof people.$inferInsert>;

/** Inserts an active person (override anything, e.g. `{ status: "deactivated" }`). */
export async function seedPerson(t: TestTenant, seed: PersonSeed = {}) {
  const db = await dbOf(t);
  const now = new Date().toISOString();
  const row = {
    id: newId("person"),
    name: "Ada Lovelace",
    status: "active" as const,
    createdAt: now,
    updatedAt: now,
    ...seed,
  };
  await db.insert(people).values(row).run();
  return row;
}

export async function setPerson(t: TestTenant, id: string, patch: PersonSeed) {
  const db = await dbOf(t);
  await db.update(people).set(patch).where(eq(people.id, id)).run();
}

/** A live, available asset in the default category and location; returns its id. */
export async function insertAsset(t: TestTenant, fields: Parameters<typeof insertAssetRow>[1] = {}): Promise<string> {
  return (await insertAssetRow(t, fields)).id;
}

/**
 * Marks `assetId` as checked out to `person` at `at` (asset row + open assignment), without the
 * checkout route; returns the assignment id (time-ordered by `at`).
 */
export async function assignDirectly(
  t: TestTenant,
  assetId: string,
  person: { id: string; name: string },
  at = new Date().toISOString(),
): Promise<string> {
  const db = await dbOf(t);
  const id = newId("assignment", Date.parse(at));
  await db.batch([
    db
      .update(assets)
      .set({
        status: "assigned",
        assigneeId: person.id,
        holderKind: "person",
        holderId: person.id,
        holderName: person.name,
        assignedAt: at,
        updatedAt: at,
      })
      .where(eq(assets.id, assetId)),
    db.insert(assignments).values({
      id,
      assetId,
      personId: person.id,
      personName: person.name,
      checkedOutAt: at,
      checkedOutBy: "usr_test",
    }),
  ]);
  return id;
}
