import { and, eq, isNull, or } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { categories, locations } from "../../db/tenant/catalog";
import { offboardingCases } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";

// A reference in a request names a row of another table: a category, a location, a person, an asset.
// Each rule "this reference must be live, or answer so" is written here once; modules call it.

export type RefKind = "category" | "location" | "person" | "asset";
export type AssetRow = typeof assets.$inferSelect;
export type PersonRow = typeof people.$inferSelect;

const NOUN: Record<RefKind, string> = {
  category: "category",
  location: "location",
  person: "person",
  asset: "inventory item",
};

/**
 * The 400 of a reference that names no live row, naming the field. `wording` keeps each route's
 * message as its clients know it: "unknown or deleted location 'x'" or "unknown location 'x'".
 */
export const refError = (kind: RefKind, path: string, id: string, wording: RefWording = "unknown or deleted") =>
  invalidField(path, `${wording} ${NOUN[kind]} '${id}'`);
export type RefWording = "unknown or deleted" | "unknown";

const TABLE = { category: categories, location: locations } as const;
const FIELD = { category: "categoryId", location: "locationId" } as const;

/** A live location's id and name, or undefined. */
export const liveLocation = (db: TenantDb, id: string) =>
  db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(and(eq(locations.id, id), isNull(locations.deletedAt)))
    .get();

/** A live category's id, or undefined. */
const liveCategory = (db: TenantDb, id: string) =>
  db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, id), isNull(categories.deletedAt)))
    .get();

/** A live location, or 400 naming `path`. */
export async function requireLocation(db: TenantDb, id: string, path = "body.locationId", wording?: RefWording) {
  const row = await liveLocation(db, id);
  if (!row) throw refError("location", path, id, wording);
  return row;
}

/** A live category, or 400 naming `path`. */
export async function requireCategory(db: TenantDb, id: string, path = "body.categoryId", wording?: RefWording) {
  const row = await liveCategory(db, id);
  if (!row) throw refError("category", path, id, wording);
  return row;
}

async function liveOrDefault(db: TenantDb, kind: "category" | "location", id: string | undefined): Promise<string> {
  if (id !== undefined) return (await (kind === "category" ? requireCategory : requireLocation)(db, id)).id;
  const table = TABLE[kind];
  const row = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.isDefault, true), isNull(table.deletedAt)))
    .get();
  if (!row) throw noDefault(kind);
  return row.id;
}

const noDefault = (kind: "category" | "location") =>
  invalidField(`body.${FIELD[kind]}`, "the workspace has no default; pass one");

/** The category id to store: the given live one, or the workspace default when absent; 400 naming the field otherwise. */
export const resolveCategory = (db: TenantDb, id?: string) => liveOrDefault(db, "category", id);
export const resolveLocation = (db: TenantDb, id?: string) => liveOrDefault(db, "location", id);

/** Which of `ids` are live rows of the catalog, in one read (one JSON parameter). */
export async function liveIds(db: TenantDb, kind: "category" | "location", ids: readonly string[]) {
  if (!ids.length) return new Set<string>();
  const table = TABLE[kind];
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(inJson(table.id, [...new Set(ids)]), isNull(table.deletedAt)))
    .all();
  return new Set(rows.map((r) => r.id));
}

/** The live rows of a catalog among some ids, and its default, read once for a set-based write. */
export interface LiveCatalog {
  kind: "category" | "location";
  live: Set<string>;
  defaultId: string | undefined;
}

export async function liveCatalog(
  db: TenantDb,
  kind: "category" | "location",
  ids: readonly string[],
): Promise<LiveCatalog> {
  const table = TABLE[kind];
  const rows = await db
    .select({ id: table.id, isDefault: table.isDefault })
    .from(table)
    .where(and(isNull(table.deletedAt), or(inJson(table.id, [...new Set(ids)]), eq(table.isDefault, true))))
    .all();
  return { kind, live: new Set(rows.map((r) => r.id)), defaultId: rows.find((r) => r.isDefault)?.id };
}

/** `resolveCategory` / `resolveLocation` against a `liveCatalog` read: the same id or the same 400. */
export function pickRef(catalog: LiveCatalog, id: string | undefined): string {
  if (id === undefined) {
    if (!catalog.defaultId) throw noDefault(catalog.kind);
    return catalog.defaultId;
  }
  if (!catalog.live.has(id)) throw refError(catalog.kind, `body.${FIELD[catalog.kind]}`, id);
  return id;
}

/** A person by id, including deleted and deactivated ones (callers decide); 400 naming `path` when unknown. */
export async function requirePerson(db: TenantDb, id: string, path = "body.personId"): Promise<PersonRow> {
  const row = await db.select().from(people).where(eq(people.id, id)).get();
  if (!row) throw refError("person", path, id, "unknown");
  return row;
}

/** A person who is not deleted; 400 "unknown person" otherwise (a deleted person is unknown to new references). */
export async function requireLivePerson(db: TenantDb, id: string, path = "body.personId"): Promise<PersonRow> {
  const row = await requirePerson(db, id, path);
  if (row.deletedAt) throw refError("person", path, id, "unknown");
  return row;
}

/**
 * A live person who is active and not leaving: what a new hand-out (checkout, issue, booking, kit
 * checkout, a request's approval) needs; 409 when deactivated or while an offboarding case is open.
 */
export async function requireActivePerson(db: TenantDb, id: string, path = "body.personId"): Promise<PersonRow> {
  const row = await requireLivePerson(db, id, path);
  if (row.status !== "active") throw conflict(`The person is ${row.status}; activate them first`);
  const refusal = await offboardingRefusal(db, id);
  if (refusal) throw refusal;
  return row;
}

/**
 * The 409 for a person with an open offboarding case (docs/offboarding.md): a leaver is given
 * nothing new; the message names the case so the caller can look it up or cancel it.
 */
export async function offboardingRefusal(db: TenantDb, personId: string) {
  const open = await db
    .select({ id: offboardingCases.id, dueAt: offboardingCases.dueAt })
    .from(offboardingCases)
    .where(and(eq(offboardingCases.personId, personId), eq(offboardingCases.state, "open")))
    .get();
  if (!open) return null;
  return conflict(
    `The person is being offboarded (case ${open.id}); nothing new can be given to them until the case is cancelled`,
    { reason: "person_offboarding", personId, offboardingCaseId: open.id, dueAt: open.dueAt },
  );
}

/** Not deleted: the condition every read of current assets adds. */
export const liveAsset = isNull(assets.deletedAt);

/**
 * A live (not deleted) asset: 404 when it is the path's own resource (no `path`), 400 naming
 * `path` when it is a reference in the body.
 */
export async function requireAsset(db: TenantDb, id: string, path?: string): Promise<AssetRow> {
  const row = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), liveAsset))
    .get();
  if (!row) throw path ? refError("asset", path, id) : notFound("Inventory item");
  return row;
}
