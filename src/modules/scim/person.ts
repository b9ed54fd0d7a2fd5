import { and, eq, isNull, sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { scimUsers } from "../../db/tenant/scim";
import { scimError } from "../../http/scim-errors";
import { describePersonCreate, updatePerson } from "../people";
import { grantsOf } from "./access";
import type { ScimCtx } from "./context";
import { displayNameOf, emailOf, enterpriseOf, type Json, managerIdOf } from "./resource";

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The person fields a SCIM User carries (the enterprise extension included; manager as a person id). */
async function personFields(ctx: ScimCtx, resource: Json, scimUserId: string | null) {
  const ext = enterpriseOf(resource);
  const managerScimId = managerIdOf(resource);
  let managerId: string | null = null;
  if (managerScimId) {
    const manager = await ctx.db
      .select({ personId: scimUsers.personId })
      .from(scimUsers)
      .where(eq(scimUsers.id, managerScimId))
      .get();
    if (!manager)
      throw scimError("validation_failed", "invalidValue", `manager '${managerScimId}' is not a provisioned User`);
    managerId = manager.personId;
  }
  const grants = scimUserId ? await grantsOf(ctx, scimUserId) : { locationId: null, department: null };
  const phones = Array.isArray(resource.phoneNumbers) ? resource.phoneNumbers : [];
  return {
    name: displayNameOf(resource),
    email: emailOf(resource),
    externalId: str(resource.externalId),
    employeeNumber: str(ext.employeeNumber),
    department: str(ext.department) ?? grants.department,
    costCenter: str(ext.costCenter),
    managerId,
    title: str(resource.title),
    phone: str((phones[0] as Json | undefined)?.value),
    ...(grants.locationId ? { locationId: grants.locationId } : {}),
  };
}

/** The live person a new SCIM User is: matched by externalId, else by email (case-insensitive). */
async function matchPerson(ctx: ScimCtx, externalId: string | null, email: string | null) {
  const live = isNull(people.deletedAt);
  if (externalId) {
    const row = await ctx.db
      .select({ id: people.id })
      .from(people)
      .where(and(live, eq(people.externalId, externalId)))
      .get();
    if (row) return row.id;
  }
  if (email) {
    const row = await ctx.db
      .select({ id: people.id })
      .from(people)
      .where(and(live, sql`lower(${people.email}) = lower(${email})`))
      .get();
    if (row) return row.id;
  }
  return null;
}

/**
 * The person of a new SCIM User: a live one matched by externalId, else email (409 if it is already
 * another SCIM User's), whose fields the caller writes once the User is stored; or a new one, as a
 * Write the caller commits in the batch of the User itself, so a failed create leaves neither.
 */
export async function personForNewUser(ctx: ScimCtx, resource: Json) {
  const fields = await personFields(ctx, resource, null);
  const found = await matchPerson(ctx, fields.externalId, fields.email);
  if (found) {
    const taken = await ctx.db.select({ id: scimUsers.id }).from(scimUsers).where(eq(scimUsers.personId, found)).get();
    if (taken) throw scimError("conflict", "uniqueness", "This person is already provisioned as another SCIM User");
    return { personId: found, linked: () => updatePerson(ctx, found, fields) };
  }
  const { person, write, onFailure } = await describePersonCreate(ctx, fields);
  return { personId: person.id, create: { write, onFailure } };
}

/** Writes what changed in the SCIM User onto its person (status aside: deprovisioning is offboarding's). */
export async function projectOntoPerson(ctx: ScimCtx, personId: string, resource: Json, scimUserId: string) {
  await updatePerson(ctx, personId, await personFields(ctx, resource, scimUserId));
}

/** Fails before anything is written when the manager is not a provisioned User. */
export const checkPersonFields = (ctx: ScimCtx, resource: Json) => personFields(ctx, resource, null);
