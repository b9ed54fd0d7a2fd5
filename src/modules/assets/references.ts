import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { categories, locations } from "../../db/tenant/catalog";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";

type Catalog = typeof categories | typeof locations;

async function liveId(db: TenantDb, table: Catalog, field: string, id: string | undefined): Promise<string> {
  const where = id === undefined ? and(eq(table.isDefault, true), isNull(table.deletedAt)) : and(eq(table.id, id), isNull(table.deletedAt));
  const row = await db.select({ id: table.id }).from(table).where(where).get();
  if (!row) throw invalidField(`body.${field}`, id === undefined ? "the workspace has no default; pass one" : `unknown or deleted ${field === "categoryId" ? "category" : "location"} '${id}'`);
  return row.id;
}

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
