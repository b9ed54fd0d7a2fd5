import { type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { categories, locations } from "../../db/tenant/catalog";
import { offboardingCases } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";

// The same rules as conditions for a write's batch guard (`batchGuard`, `GuardCheck`): read now,
// re-checked inside the batch, so a reference deleted between the read and the write fails the write.

const TABLE = { category: categories, location: locations, asset: assets } as const;

/** Holds while every id of `ids` is a live row (one JSON parameter, so any number of ids). */
export const allLive = (kind: keyof typeof TABLE, ids: readonly string[]): SQL => {
  const table = TABLE[kind];
  return sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify([...new Set(ids)])}) j WHERE NOT EXISTS (
    SELECT 1 FROM ${table} WHERE ${table.id} = j.value AND ${table.deletedAt} IS NULL))`;
};

/** Holds while the row is live. */
export const isLive = (kind: keyof typeof TABLE, id: string): SQL => {
  const table = TABLE[kind];
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${id} AND ${table.deletedAt} IS NULL)`;
};

/** Holds while both references of an asset or stock item are live (no dangling references). */
export const referencesLive = (categoryId: string, locationId: string): SQL =>
  sql`${isLive("category", categoryId)}
    AND ${isLive("location", locationId)}`;

/** Holds while every person of `ids` is live, active and not being offboarded (may receive assets or stock). */
export const peopleActive = (ids: readonly string[]): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify([...new Set(ids)])}) j WHERE NOT EXISTS (
    SELECT 1 FROM ${people} WHERE ${people.id} = j.value AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)
    OR EXISTS (SELECT 1 FROM ${offboardingCases} WHERE ${offboardingCases.personId} = j.value AND ${offboardingCases.state} = 'open'))`;
