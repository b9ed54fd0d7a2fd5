import { and, eq, isNull, or, sql, type SQL, count } from "drizzle-orm";
import { inJson } from "../../platform/d1-write";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { notFound, invalidField } from "../../platform/errors";
import type { AssetRow } from "./view";
import { categories, locations } from "../../db/tenant/catalog";
import { people } from "../../db/tenant/people";

export const liveAsset = isNull(assets.deletedAt);

/** A live (not deleted) asset or a 404. */
export async function requireAsset(db: TenantDb, id: string): Promise<AssetRow> {
  const row = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), liveAsset))
    .get();
  if (!row) throw notFound("Inventory item");
  return row;
}

type Catalog = typeof categories | typeof locations;

async function liveId(db: TenantDb, table: Catalog, field: string, id: string | undefined): Promise<string> {
  const where =
    id === undefined
      ? and(eq(table.isDefault, true), isNull(table.deletedAt))
      : and(eq(table.id, id), isNull(table.deletedAt));
  const row = await db.select({ id: table.id }).from(table).where(where).get();
  if (!row) throw refError(field, id);
  return row.id;
}

const refError = (field: string, id: string | undefined) =>
  invalidField(
    `body.${field}`,
    id === undefined
      ? "the workspace has no default; pass one"
      : `unknown or deleted ${field === "categoryId" ? "category" : "location"} '${id}'`,
  );

/** The live rows of a catalog among some ids, and its default, read once for a set-based write. */
export interface LiveCatalog {
  field: "categoryId" | "locationId";
  live: Set<string>;
  defaultId: string | undefined;
}

export async function liveCatalog(db: TenantDb, kind: "category" | "location", ids: readonly string[]) {
  const table: Catalog = kind === "category" ? categories : locations;
  const rows = await db
    .select({ id: table.id, isDefault: table.isDefault })
    .from(table)
    .where(and(isNull(table.deletedAt), or(inJson(table.id, [...new Set(ids)]), eq(table.isDefault, true))))
    .all();
  return {
    field: kind === "category" ? "categoryId" : "locationId",
    live: new Set(rows.map((r) => r.id)),
    defaultId: rows.find((r) => r.isDefault)?.id,
  } satisfies LiveCatalog;
}

/** `resolveCategory` / `resolveLocation` against a `liveCatalog` read: the same id or the same 400. */
export function pickRef(catalog: LiveCatalog, id: string | undefined): string {
  const found = id === undefined ? catalog.defaultId : catalog.live.has(id) ? id : undefined;
  if (!found) throw refError(catalog.field, id);
  return found;
}

/** Holds while every id of `ids` is a live row of the catalog (a set-based write's references guard). */
export const allLive = (kind: "category" | "location", ids: readonly string[]): SQL => {
  const table: Catalog = kind === "category" ? categories : locations;
  return sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify([...new Set(ids)])}) j WHERE NOT EXISTS (
    SELECT 1 FROM ${table} WHERE ${table.id} = j.value AND ${table.deletedAt} IS NULL))`;
};

/** The category id to store: the given live one, or the workspace default when absent; 400 naming the field otherwise. */
export const resolveCategory = (db: TenantDb, id?: string) => liveId(db, categories, "categoryId", id);
export const resolveLocation = (db: TenantDb, id?: string) => liveId(db, locations, "locationId", id);

/** SQL that holds while both references are still live, for a batch guard (no dangling references). */
export const referencesLive = (categoryId: string, locationId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${categories} WHERE ${categories.id} = ${categoryId} AND ${categories.deletedAt} IS NULL)
    AND EXISTS (SELECT 1 FROM ${locations} WHERE ${locations.id} = ${locationId} AND ${locations.deletedAt} IS NULL)`;

export type PersonRow = typeof people.$inferSelect;

/** A person by id, including deleted and deactivated ones (callers decide); 400 naming `path` when unknown. */
export async function requirePerson(db: TenantDb, id: string, path = "body.personId"): Promise<PersonRow> {
  const row = await db.select().from(people).where(eq(people.id, id)).get();
  if (!row) throw invalidField(path, `unknown person '${id}'`);
  return row;
}

/**
 * How many live (not deleted) assets use a category or location; categories and locations in use
 * cannot be deleted. Served by the partial (category_id, id) / (location_id, id) list indexes.
 */
export async function countLiveAssetsUsing(
  db: TenantDb,
  ref: { categoryId: string } | { locationId: string },
): Promise<number> {
  const match = "categoryId" in ref ? eq(assets.categoryId, ref.categoryId) : eq(assets.locationId, ref.locationId);
  const row = await db
    .select({ n: count() })
    .from(assets)
    .where(and(match, isNull(assets.deletedAt)))
    .get();
  return row?.n ?? 0;
}

/**
 * The same rule as a condition for the deleting UPDATE itself, so an asset created in or moved to the
 * category/location between the count and the delete makes the delete change nothing (assets guard
 * the other direction: their writes require a live category and location in the same batch).
 */
export function noLiveAssetUses(ref: { categoryId: string } | { locationId: string }): SQL {
  const match = "categoryId" in ref ? eq(assets.categoryId, ref.categoryId) : eq(assets.locationId, ref.locationId);
  return sql`NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${match} AND ${assets.deletedAt} IS NULL)`;
}

// Crockford base32 without I, L, O, U: unambiguous when read off a label and typed by hand.
const TAG_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `AST-` + 6 random base32 characters (~1 billion values). Collisions are retried by the caller. */
export function generateTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let out = "AST-";
  for (const b of bytes) out += TAG_ALPHABET[b % 32];
  return out;
}

/** Tags compare case-insensitively (ASCII), matching the unique index on lower(unique_tag). */
export const tagEquals = (tag: string) =>
  and(eq(sql`lower(${assets.uniqueTag})`, tag.toLowerCase()), isNull(assets.deletedAt));

export async function tagTaken(db: TenantDb, tag: string): Promise<boolean> {
  return Boolean(await db.select({ id: assets.id }).from(assets).where(tagEquals(tag)).get());
}
