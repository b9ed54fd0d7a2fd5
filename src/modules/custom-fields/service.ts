import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { type CustomFieldEntity, customFields } from "../../db/tenant/custom-fields";
import { syncRows, tombstoneField } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncPage } from "../../platform/sync";
import type { FieldDef } from "./definitions";
import { assertKeyAllowed, normalizeOptions } from "./rules";
import type { CreateCustomFieldInput } from "./schemas";
import { hasValues } from "./usage";
import { toCustomField } from "./view";

type Ctx = ServiceCtx;

export const AUDITED_FIELDS = ["entity", "key", "label", "type", "options", "required", "helpText"] as const;

const live = isNull(customFields.deletedAt);
export const keyTaken = (entity: string, key: string) =>
  conflict(`A ${entity} custom field with the key '${key}' already exists`);

export async function listCustomFields(
  { db }: Ctx,
  input: { limit: number; cursor?: string; entity?: CustomFieldEntity; updatedSince?: string },
) {
  if (input.updatedSince) {
    // Sync: deleted fields too (tombstones), purged ones from sync_tombstones.
    const rows = await syncRows(
      db,
      "custom_field",
      customFields,
      { ...input, updatedSince: input.updatedSince },
      input.entity ? eq(customFields.entity, input.entity) : undefined,
      input.entity ? [tombstoneField("entity", input.entity)] : [],
    );
    return syncPage(rows, input.limit, (r) => ({ ...toCustomField(r), deletedAt: r.deletedAt }));
  }
  const page = keyset(input, { by: [customFields.id] });
  const rows = await db
    .select()
    .from(customFields)
    .where(and(live, input.entity ? eq(customFields.entity, input.entity) : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toCustomField);
}

export async function getCustomField({ db }: Ctx, id: string): Promise<FieldDef> {
  const row = await db
    .select()
    .from(customFields)
    .where(and(eq(customFields.id, id), live))
    .get();
  if (!row) throw notFound("Custom field");
  return row;
}

/**
 * Values of a deleted field stay on the rows (so restoring it brings them back). A new or renamed
 * field may not take over such a key while values remain: they could be of another type.
 */
export async function assertNoOrphanValues({ db }: Ctx, entity: CustomFieldEntity, key: string, selfId?: string) {
  const twins = await db
    .select()
    .from(customFields)
    .where(
      and(
        isNotNull(customFields.deletedAt),
        eq(customFields.entity, entity),
        sql`lower(${customFields.key}) = ${key.toLowerCase()}`,
        selfId ? ne(customFields.id, selfId) : undefined,
      ),
    )
    .all();
  for (const key of new Set(twins.map((t) => t.key))) {
    if (await hasValues(db, entity, key)) {
      throw conflict(
        `Values of a deleted ${entity} field with the key '${key}' are still stored; restore that field or delete it permanently from the trash first`,
        {
          deletedFieldIds: twins.filter((t) => t.key === key).map((t) => t.id),
        },
      );
    }
  }
}

export async function createCustomField(ctx: Ctx, input: CreateCustomFieldInput) {
  assertKeyAllowed(input.entity, input.key);
  const options = normalizeOptions(input.type, input.options);
  await assertNoOrphanValues(ctx, input.entity, input.key);
  const now = nowIso();
  const row: FieldDef = {
    id: newId("customField"),
    entity: input.entity,
    key: input.key,
    label: input.label,
    type: input.type,
    options,
    required: input.required ?? false,
    helpText: input.helpText ?? null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
  };
  const out = toCustomField(row);
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [ctx.db.insert(customFields).values(row)],
      audits: [
        {
          entityType: "custom_field",
          entityId: row.id,
          action: "create",
          actor: ctx.actor,
          at: now,
          after: out,
          fields: AUDITED_FIELDS,
        },
      ],
      events: [{ type: "custom_field.created", subjectId: row.id, payload: out }],
    }),
    () => keyTaken(input.entity, input.key),
  );
  return row;
}

/** Soft delete. Stored values and layout entries stay; both are hidden while the field is deleted. */
export async function deleteCustomField(ctx: Ctx, id: string) {
  const current = await getCustomField(ctx, id);
  const now = nowIso();
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(customFields)
          .set({ deletedAt: now, deletedBy: ctx.actor, updatedAt: now })
          .where(and(eq(customFields.id, id), live)),
        { type: "custom_field.deleted", subjectId: id, payload: { ...toCustomField(current), deletedAt: now } },
      ),
      {
        audits: [{ entityType: "custom_field", entityId: id, action: "delete", actor: ctx.actor, at: now, fields: [] }],
      },
    ),
  );
  if (changedRows(done) === 0) throw notFound("Custom field");
}

export async function restoreCustomField(ctx: Ctx, id: string) {
  const row = await ctx.db
    .select()
    .from(customFields)
    .where(and(eq(customFields.id, id), isNotNull(customFields.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted custom field");
  const now = nowIso();
  const restored: FieldDef = { ...row, deletedAt: null, deletedBy: null, updatedAt: now };
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [
        ctx.db
          .update(customFields)
          .set({ deletedAt: null, deletedBy: null, updatedAt: now })
          .where(and(eq(customFields.id, id), isNotNull(customFields.deletedAt))),
      ],
      audits: [{ entityType: "custom_field", entityId: id, action: "restore", actor: ctx.actor, at: now, fields: [] }],
      events: [{ type: "custom_field.restored", subjectId: id, payload: toCustomField(restored) }],
    }),
    () => conflict(`Cannot restore: a live ${row.entity} custom field already uses the key '${row.key}'`),
  );
  return restored;
}
