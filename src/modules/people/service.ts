import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { isLive, requireLivePerson, requireLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { syncRows } from "../../events/tombstones";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { ftsColumnsQuery } from "../../platform/fts";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncPage } from "../../platform/sync";
import { checkCustomFieldValues, liveDefinitions } from "../custom-fields";
import { AUDITED_FIELDS, newPersonRow, personCreated } from "./changes";
import type { CreatePersonInput, ListPeopleInput } from "./schemas";
import { type PersonRow, presentPerson, toPerson } from "./view";

type Ctx = ServiceCtx;

export { AUDITED_FIELDS };

export const live = isNull(people.deletedAt);
export const emailTaken = (email: string | null | undefined) =>
  conflict(`A person with the email '${email}' already exists`);
const externalIdTaken = (externalId: string | null | undefined) =>
  conflict(`A person with the externalId '${externalId}' already exists`);

/** A unique violation on a person write: the external id's index, else the email's. */
export const personTaken = (row: { email: string | null; externalId: string | null }) => (err: unknown) =>
  isUniqueViolation(err, "people_external_id_live_uq") || isUniqueViolation(err, "people.external_id")
    ? externalIdTaken(row.externalId)
    : emailTaken(row.email);

/** 400 unless the manager is another live person; the guard re-checks it inside the write's batch. */
export async function managerGuard(db: TenantDb, managerId: string | null | undefined, personId: string) {
  if (!managerId) return [];
  if (managerId === personId) throw invalidField("body.managerId", "a person cannot be their own manager");
  await requireLivePerson(db, managerId, "body.managerId");
  return [
    batchGuard(
      db,
      "person_manager",
      sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${managerId} AND ${people.deletedAt} IS NULL)`,
    ),
  ];
}
/** SQLite's lower() folds ASCII only; the cursor and prefix bounds must fold the same way. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** 400 unless the location exists and is live; the returned guard re-checks it inside the write's batch. */
export async function locationGuard(db: TenantDb, locationId: string | null | undefined) {
  if (!locationId) return [];
  await requireLocation(db, locationId, "body.locationId", "unknown");
  return [batchGuard(db, "person_location", isLive("location", locationId))];
}

const byName = (input: ListPeopleInput) => keyset(input, { by: [sql`lower(${people.name})`, people.id] });

/** Live people by name. `q` is a prefix of name, email or employee number: three index range scans, no table scan. */
export function listPeopleQuery(db: TenantDb, input: ListPeopleInput, page = byName(input)) {
  const statuses = input.status === "all" ? (["active", "deactivated"] as const) : [input.status];
  let match: SQL | undefined;
  if (input.q) {
    const lo = asciiLower(input.q);
    const hi = `${lo}\u{10FFFF}`;
    // Word prefixes anywhere in the name ("love" finds "Ada Lovelace") through people_fts;
    // emails and employee numbers match from their start only ("corp" must not find every colleague).
    const words = ftsColumnsQuery(["name"], input.q);
    match = sql`${people.id} IN (
      SELECT id FROM people WHERE lower(name) >= ${lo} AND lower(name) < ${hi}
      UNION SELECT id FROM people WHERE lower(email) >= ${lo} AND lower(email) < ${hi}
      UNION SELECT id FROM people WHERE lower(employee_number) >= ${lo} AND lower(employee_number) < ${hi}
      ${words === null ? sql`` : sql`UNION SELECT id FROM people_fts WHERE people_fts MATCH ${words}`})`;
  }
  return db
    .select()
    .from(people)
    .where(and(live, inArray(people.status, [...statuses]), match, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

export async function listPeople({ db }: Ctx, input: ListPeopleInput) {
  if (input.updatedSince) {
    // Sync: every status and deleted people too (tombstones), in change order.
    const [rows, defs] = await Promise.all([
      syncRows(db, "person", people, { ...input, updatedSince: input.updatedSince }),
      liveDefinitions(db, "person"),
    ]);
    return syncPage(rows, input.limit, (r) => ({ ...toPerson(r, defs), deletedAt: r.deletedAt }));
  }
  const page = byName(input);
  const rows = await listPeopleQuery(db, input, page).all();
  const defs = await liveDefinitions(db, "person");
  return page.of(
    rows,
    (r) => [asciiLower(r.name), r.id],
    (r) => toPerson(r, defs),
  );
}

/** A live (non-deleted) person, active or deactivated. */
export async function getPerson({ db }: Ctx, id: string): Promise<PersonRow> {
  const row = await db
    .select()
    .from(people)
    .where(and(eq(people.id, id), live))
    .get();
  if (!row) throw notFound("Person");
  return row;
}

export async function createPerson(ctx: Ctx, input: CreatePersonInput) {
  const { person, write, onFailure } = await describePersonCreate(ctx, input);
  await commitWrite(ctx, write, onFailure);
  return person;
}

/**
 * A person's creation as a Write (rows, guards, audit, events) and the answer to its failures, for
 * a verb that commits it in one batch with rows of its own (a SCIM User and its person).
 */
export async function describePersonCreate(ctx: Ctx, input: CreatePersonInput) {
  const customFields = await checkCustomFieldValues(ctx.db, "person", input.customFields);
  const now = nowIso();
  const row = newPersonRow(newId("person"), now, input, customFields);
  const guards = [
    ...(await locationGuard(ctx.db, input.locationId)),
    ...(await managerGuard(ctx.db, input.managerId, row.id)),
  ];
  const person = await presentPerson(ctx.db, row);
  const { events, audit } = personCreated(row, person, ctx.actor, now);
  const write: Write = { guards, writes: [ctx.db.insert(people).values(row)], audits: [audit], events };
  const onFailure = (err: unknown): never => {
    if (isUniqueViolation(err)) throw personTaken(row)(err);
    return rethrowGuard(err);
  };
  return { person, write, onFailure };
}

/** A failed location guard means the location was deleted between the check and the write. */
export function rethrowGuard(err: unknown): never {
  if (guardFailed(err, "person_location")) throw invalidField("body.locationId", "the location was deleted meanwhile");
  if (guardFailed(err, "person_manager")) throw invalidField("body.managerId", "the manager was deleted meanwhile");
  throw err;
}
