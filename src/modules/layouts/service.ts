import { and, asc, eq, isNotNull, ne } from "drizzle-orm";
import { type CustomFieldEntity, customFields, layouts } from "../../db/tenant/custom-fields";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { liveDefinitions } from "../custom-fields";
import { assertLayoutFields } from "./fields";
import type { CreateLayoutInput, UpdateLayoutInput } from "./schemas";
import { type LayoutRow, liveKeysFor, present, toLayout } from "./view";

type Ctx = ServiceCtx;
const AUDITED = ["entity", "name", "isDefault", "sections"] as const;

const nameTaken = (name: string) => conflict(`A layout named '${name}' already exists for this entity`);

async function checkSections(db: TenantDb, entity: CustomFieldEntity, sections: CreateLayoutInput["sections"]) {
  const live = await liveDefinitions(db, entity);
  const deleted = await db
    .select()
    .from(customFields)
    .where(and(eq(customFields.entity, entity), isNotNull(customFields.deletedAt)))
    .all();
  assertLayoutFields(entity, sections, live, deleted);
}

export async function listLayouts({ db }: Ctx, input: { limit: number; cursor?: string; entity?: CustomFieldEntity }) {
  const page = keyset(input, { by: [layouts.id] });
  const rows = await db
    .select()
    .from(layouts)
    .where(and(input.entity ? eq(layouts.entity, input.entity) : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const keys = await liveKeysFor(
    db,
    rows.map((r) => r.entity),
  );
  return page.of(
    rows,
    (r) => [r.id],
    (r) => toLayout(r, keys.get(r.entity) ?? new Set()),
  );
}

export async function getLayout({ db }: Ctx, id: string): Promise<LayoutRow> {
  const row = await db.select().from(layouts).where(eq(layouts.id, id)).get();
  if (!row) throw notFound("Layout");
  return row;
}

export async function getDefaultLayout({ db }: Ctx, entity: CustomFieldEntity): Promise<LayoutRow> {
  const row = await db
    .select()
    .from(layouts)
    .where(and(eq(layouts.entity, entity), eq(layouts.isDefault, true)))
    .get();
  if (!row) throw notFound(`Default ${entity} layout`);
  return row;
}

/** Clears the entity's current default (other than `keep`) and audits it; goes in the same batch as the new default. */
async function clearDefault(ctx: Ctx, entity: CustomFieldEntity, keep: string, at: string): Promise<Write> {
  const current = await ctx.db
    .select()
    .from(layouts)
    .where(and(eq(layouts.entity, entity), eq(layouts.isDefault, true), ne(layouts.id, keep)))
    .all();
  return {
    writes: [
      ctx.db
        .update(layouts)
        .set({ isDefault: false, updatedAt: at })
        .where(and(eq(layouts.entity, entity), eq(layouts.isDefault, true), ne(layouts.id, keep))),
    ],
    audits: current.map((r) => ({
      entityType: "layout",
      entityId: r.id,
      action: "update",
      actor: ctx.actor,
      at,
      before: { isDefault: true },
      after: { isDefault: false },
    })),
  };
}

/** The first layout of an entity is its default whatever the body says; `isDefault: true` takes the default over. */
export async function createLayout(ctx: Ctx, input: CreateLayoutInput) {
  await checkSections(ctx.db, input.entity, input.sections);
  const existing = await ctx.db
    .select({ id: layouts.id })
    .from(layouts)
    .where(eq(layouts.entity, input.entity))
    .limit(1)
    .get();
  const now = nowIso();
  const row: LayoutRow = {
    id: newId("layout"),
    entity: input.entity,
    name: input.name,
    isDefault: input.isDefault === true || !existing,
    sections: input.sections,
    createdAt: now,
    updatedAt: now,
  };
  const out = await present(ctx.db, row);
  const write = joinWrites(row.isDefault ? await clearDefault(ctx, row.entity, row.id, now) : null, {
    writes: [ctx.db.insert(layouts).values(row)],
    audits: [
      {
        entityType: "layout",
        entityId: row.id,
        action: "create",
        actor: ctx.actor,
        at: now,
        after: { ...row },
        fields: AUDITED,
      },
    ],
    events: [{ type: "layout.created", subjectId: row.id, payload: out }],
  });
  await onUniqueViolation(commitWrite(ctx, write), () => nameTaken(input.name));
  return out;
}

export async function updateLayout(ctx: Ctx, id: string, patch: UpdateLayoutInput) {
  const cur = await getLayout(ctx, id);
  if (patch.isDefault === false && cur.isDefault)
    throw conflict("The default layout cannot be unset; make another layout of this entity the default instead");
  if (patch.sections) await checkSections(ctx.db, cur.entity, patch.sections);
  const now = nowIso();
  const next: LayoutRow = {
    ...cur,
    name: patch.name ?? cur.name,
    sections: patch.sections ?? cur.sections,
    isDefault: cur.isDefault || patch.isDefault === true,
    updatedAt: now,
  };
  const out = await present(ctx.db, next);
  // The old default is cleared before this row becomes the default: the partial unique index is checked per statement.
  const clear = next.isDefault && !cur.isDefault ? await clearDefault(ctx, cur.entity, id, now) : null;
  const write = joinWrites(
    clear,
    ifChanged(
      ctx,
      ctx.db
        .update(layouts)
        .set({ name: next.name, sections: next.sections, isDefault: next.isDefault, updatedAt: now })
        .where(eq(layouts.id, id)),
      { type: "layout.updated", subjectId: id, payload: { ...out, changes: Object.keys(patch) } },
    ),
    {
      audits: [
        {
          entityType: "layout",
          entityId: id,
          action: "update",
          actor: ctx.actor,
          at: now,
          before: { ...cur },
          after: { ...next },
          fields: AUDITED,
        },
      ],
    },
  );
  const done = await onUniqueViolation(commitWrite(ctx, write), () => nameTaken(next.name));
  if (changedRows(done) === 0) throw notFound("Layout");
  return out;
}

/** Hard delete (layouts are not in the trash). Deleting the default promotes the entity's oldest other layout. */
export async function deleteLayout(ctx: Ctx, id: string) {
  const cur = await getLayout(ctx, id);
  const heir = cur.isDefault
    ? await ctx.db
        .select()
        .from(layouts)
        .where(and(eq(layouts.entity, cur.entity), ne(layouts.id, id)))
        .orderBy(asc(layouts.id))
        .limit(1)
        .get()
    : undefined;
  const now = nowIso();
  await commitWrite(
    ctx,
    joinWrites(
      ifChanged(ctx, ctx.db.delete(layouts).where(eq(layouts.id, id)), {
        type: "layout.deleted",
        subjectId: id,
        payload: { id, entity: cur.entity, name: cur.name },
      }),
      { audits: [{ entityType: "layout", entityId: id, action: "delete", actor: ctx.actor, at: now, fields: [] }] },
      heir && {
        // After the delete: one default per entity is checked per statement.
        derived: [ctx.db.update(layouts).set({ isDefault: true, updatedAt: now }).where(eq(layouts.id, heir.id))],
        audits: [
          {
            entityType: "layout",
            entityId: heir.id,
            action: "update",
            actor: ctx.actor,
            at: now,
            before: { isDefault: false },
            after: { isDefault: true },
          },
        ],
      },
    ),
  );
  return { promoted: heir?.id ?? null };
}
