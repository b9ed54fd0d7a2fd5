import { and, asc, eq, isNull } from "drizzle-orm";
import { type CustomFieldEntity, customFields } from "../../db/tenant/custom-fields";
import type { TenantDb } from "../../env";

export type FieldDef = typeof customFields.$inferSelect;

/** The live (non-deleted) definitions of an entity, oldest first (the order forms show them by default). */
export function liveDefinitions(db: TenantDb, entity: CustomFieldEntity): Promise<FieldDef[]> {
  return db
    .select()
    .from(customFields)
    .where(and(isNull(customFields.deletedAt), eq(customFields.entity, entity)))
    .orderBy(asc(customFields.id))
    .all();
}

/**
 * Stored values restricted to live definitions. Values of a deleted field stay on the row (restoring
 * the field brings them back) but are not shown while the field is deleted.
 */
export function visibleValues(values: Record<string, unknown>, defs: readonly FieldDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of defs) if (values[d.key] !== undefined && values[d.key] !== null) out[d.key] = values[d.key];
  return out;
}
