import type { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { type FieldDef, liveDefinitions, visibleValues } from "../custom-fields";

export type PersonRow = typeof people.$inferSelect;

export const toPerson = (r: PersonRow, defs: readonly FieldDef[]) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  employeeNumber: r.employeeNumber,
  department: r.department,
  costCenter: r.costCenter,
  externalId: r.externalId,
  managerId: r.managerId,
  title: r.title,
  phone: r.phone,
  locationId: r.locationId,
  notes: r.notes,
  status: r.status,
  customFields: visibleValues(r.customFields, defs),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Person response with values of deleted custom fields hidden (one definitions read per request). */
export async function presentPerson(db: TenantDb, r: PersonRow) {
  return toPerson(r, await liveDefinitions(db, "person"));
}
