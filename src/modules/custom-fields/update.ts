import { and, eq, isNull } from "drizzle-orm";
import { type CustomFieldEntity, customFields, layouts } from "../../db/tenant/custom-fields";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import type { FieldDef } from "./definitions";
import { assertKeyAllowed, normalizeOptions } from "./rules";
import type { UpdateCustomFieldInput } from "./schemas";
import { AUDITED_FIELDS, assertNoOrphanValues, getCustomField, keyTaken } from "./service";
import { hasValues, optionsInUse, renameValuesStatement } from "./usage";
import { toCustomField } from "./view";

/** The options after a patch: kept, replaced, or dropped when the field stops being a dropdown. */
function nextOptions(current: FieldDef, type: FieldDef["type"], patch: UpdateCustomFieldInput): string[] | null {
  if (patch.options !== undefined) return normalizeOptions(type, patch.options);
  if (type !== "dropdown") return null;
  return normalizeOptions(type, current.type === "dropdown" ? current.options : null);
}

/**
 * Updates a definition. Guards: entity or type cannot change once any value exists; a dropdown
 * option still held by some row cannot be removed; a renamed key moves the stored values (one
 * statement per table) and layout entries in the same batch as the definition.
 */
export async function updateCustomField(ctx: ServiceCtx, id: string, patch: UpdateCustomFieldInput) {
  const cur = await getCustomField(ctx, id);
  const entity = patch.entity ?? cur.entity;
  const type = patch.type ?? cur.type;
  const key = patch.key ?? cur.key;
  assertKeyAllowed(entity, key);
  const options = nextOptions(cur, type, patch);

  if ((entity !== cur.entity || type !== cur.type) && (await hasValues(ctx.db, cur.entity, cur.key))) {
    const what = entity !== cur.entity ? "entity" : "type";
    throw conflict(`The ${what} of '${cur.key}' cannot change: ${cur.entity}s already hold values for it`);
  }
  if (type === "dropdown" && cur.type === "dropdown") {
    const removed = (cur.options ?? []).filter((o) => !options?.includes(o));
    const used = removed.length > 0 ? await optionsInUse(ctx.db, cur.entity, cur.key, removed) : [];
    if (used.length > 0)
      throw conflict(`Options still in use cannot be removed: ${used.join(", ")}`, { optionsInUse: used });
  }
  if (entity !== cur.entity || key.toLowerCase() !== cur.key.toLowerCase())
    await assertNoOrphanValues(ctx, entity, key, id);

  const now = nowIso();
  const next: FieldDef = {
    ...cur,
    entity,
    type,
    key,
    options,
    label: patch.label ?? cur.label,
    required: patch.required ?? cur.required,
    helpText: patch.helpText !== undefined ? patch.helpText : cur.helpText,
    updatedAt: now,
  };
  // Values only exist in the old entity's table when the entity did not change (guard above).
  const renamed = key !== cur.key && entity === cur.entity;
  const layoutUpdates = renamed ? await renameKeyInLayouts(ctx.db, entity, cur.key, key) : [];

  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      joinWrites(
        ifChanged(
          ctx,
          ctx.db
            .update(customFields)
            .set({
              entity,
              type,
              key,
              options,
              label: next.label,
              required: next.required,
              helpText: next.helpText,
              updatedAt: now,
            })
            .where(and(eq(customFields.id, id), isNull(customFields.deletedAt))),
          {
            type: "custom_field.updated",
            subjectId: id,
            payload: { ...toCustomField(next), changes: Object.keys(patch) },
          },
        ),
        {
          // The values move only once the definition carries the new key (the statement checks it).
          derived: [...(renamed ? [renameValuesStatement(ctx.db, entity, cur.key, key, id)] : []), ...layoutUpdates],
          audits: [
            {
              entityType: "custom_field",
              entityId: id,
              action: "update",
              actor: ctx.actor,
              at: now,
              before: toCustomField(cur),
              after: toCustomField(next),
              fields: AUDITED_FIELDS,
            },
          ],
        },
      ),
    ),
    () => keyTaken(entity, key),
  );
  if (changedRows(done) === 0) throw notFound("Custom field");
  return next;
}

/**
 * UPDATEs moving a renamed custom field key in every layout of the entity (for the rename's batch). The rename owns this
 * propagation, so the custom-fields module writes the layouts table rather than calling into layouts.
 */
export async function renameKeyInLayouts(db: TenantDb, entity: CustomFieldEntity, from: string, to: string) {
  const rows = await db.select().from(layouts).where(eq(layouts.entity, entity)).all();
  const now = nowIso();
  return rows
    .filter((r) => r.sections.some((s) => s.fields.some((f) => f.key === from)))
    .map((r) => {
      const sections = r.sections.map((s) => ({
        ...s,
        fields: s.fields.filter((f) => f.key !== to).map((f) => (f.key === from ? { ...f, key: to } : f)),
      }));
      return db.update(layouts).set({ sections, updatedAt: now }).where(eq(layouts.id, r.id));
    });
}
