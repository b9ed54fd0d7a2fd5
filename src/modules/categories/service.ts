import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { categories } from "../../db/tenant/catalog";
import { countLiveAssetsUsing, countStockUsing, noLiveAssetUses, noLiveStockUses } from "../../domain/catalog";
import { healthStaleWhere, settleHealthBacklog } from "../../domain/health-engine";
import { syncRows, tombstoneData } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { likeContains } from "../../platform/sql";
import { syncPage } from "../../platform/sync";
import { type CategoryRow, toCategory } from "./view";

type Ctx = ServiceCtx;

const live = isNull(categories.deletedAt);
const nameTaken = (name: string) => conflict(`A category named '${name}' already exists`);

export async function listCategories(
  { db }: Ctx,
  input: { limit: number; cursor?: string; q?: string; updatedSince?: string },
) {
  if (input.updatedSince) {
    // Sync: deleted categories too (tombstones), purged ones from sync_tombstones.
    const rows = await syncRows(
      db,
      "category",
      categories,
      { ...input, updatedSince: input.updatedSince },
      input.q ? likeContains(categories.name, input.q) : undefined,
      input.q ? [likeContains(tombstoneData("name"), input.q)] : [],
    );
    return syncPage(rows, input.limit, (r) => ({ ...toCategory(r), deletedAt: r.deletedAt }));
  }
  const page = keyset(input, { by: [sql`lower(${categories.name})`, categories.id] });
  const rows = await db
    .select()
    .from(categories)
    .where(and(live, input.q ? likeContains(categories.name, input.q) : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.name.toLowerCase(), r.id], toCategory);
}

export async function getCategory({ db }: Ctx, id: string): Promise<CategoryRow> {
  const row = await db
    .select()
    .from(categories)
    .where(and(eq(categories.id, id), live))
    .get();
  if (!row) throw notFound("Category");
  return row;
}

export async function getDefaultCategory({ db }: Ctx): Promise<CategoryRow> {
  const row = await db
    .select()
    .from(categories)
    .where(and(eq(categories.isDefault, true), live))
    .get();
  if (!row) throw notFound("Default category");
  return row;
}

export async function createCategory(
  ctx: Ctx,
  input: { name: string; description?: string | null; expectedLifeMonths?: number | null },
) {
  const now = nowIso();
  const row: CategoryRow = {
    id: newId("category"),
    name: input.name,
    description: input.description ?? null,
    expectedLifeMonths: input.expectedLifeMonths ?? null,
    isDefault: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
  };
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [ctx.db.insert(categories).values(row)],
      events: [{ type: "category.created", subjectId: row.id, payload: toCategory(row) }],
    }),
    () => nameTaken(input.name),
  );
  return row;
}

export async function updateCategory(
  ctx: Ctx,
  id: string,
  patch: { name?: string; description?: string | null; expectedLifeMonths?: number | null },
) {
  const current = await getCategory(ctx, id);
  const next: CategoryRow = { ...current, ...patch, updatedAt: nowIso() };
  const lifeChanged = next.expectedLifeMonths !== current.expectedLifeMonths;
  // Conditional on still being live, so a concurrent delete wins cleanly (and leaves no event).
  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      joinWrites(
        ifChanged(
          ctx,
          ctx.db
            .update(categories)
            .set({
              name: next.name,
              description: next.description,
              expectedLifeMonths: next.expectedLifeMonths,
              updatedAt: next.updatedAt,
            })
            .where(and(eq(categories.id, id), live)),
          { type: "category.updated", subjectId: id, payload: { ...toCategory(next), changes: Object.keys(patch) } },
        ),
        // Expected life feeds the health of every asset in the category: stale now, re-scored below.
        lifeChanged
          ? {
              derived: [
                healthStaleWhere(ctx.db, sql`SELECT id FROM assets WHERE category_id = ${id} AND deleted_at IS NULL`),
              ],
            }
          : null,
      ),
    ),
    () => nameTaken(next.name),
  );
  if (changedRows(done) === 0) throw notFound("Category");
  if (lifeChanged) await settleHealthBacklog(ctx);
  return next;
}

/** Soft delete. The default category, and a category live assets or live stock items use, cannot be deleted. */
export async function deleteCategory(ctx: Ctx, id: string) {
  const current = await getCategory(ctx, id);
  if (current.isDefault) throw conflict("The default category cannot be deleted");
  await refuseIfInUse(ctx, id);
  const now = nowIso();
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(categories)
        .set({ deletedAt: now, deletedBy: ctx.actor, updatedAt: now })
        .where(
          and(eq(categories.id, id), live, noLiveAssetUses({ categoryId: id }), noLiveStockUses({ categoryId: id })),
        ),
      { type: "category.deleted", subjectId: id, payload: { ...toCategory(current), deletedAt: now } },
    ),
  );
  if (changedRows(done) === 0) {
    await refuseIfInUse(ctx, id); // an asset or stock item arrived meanwhile
    throw notFound("Category");
  }
}

async function refuseIfInUse(ctx: Ctx, id: string): Promise<void> {
  const users = await countLiveAssetsUsing(ctx.db, { categoryId: id });
  if (users > 0)
    throw conflict(`The category is used by ${users} asset(s); move them to another category first`, { assets: users });
  const stock = await countStockUsing(ctx.db, { categoryId: id });
  if (stock > 0)
    throw conflict(`The category is used by ${stock} stock item(s); move them to another category first`, {
      stockItems: stock,
    });
}

export async function restoreCategory(ctx: Ctx, id: string) {
  const row = await ctx.db
    .select()
    .from(categories)
    .where(and(eq(categories.id, id), isNotNull(categories.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted category");
  const now = nowIso();
  const restored: CategoryRow = { ...row, deletedAt: null, deletedBy: null, updatedAt: now };
  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      ifChanged(
        ctx,
        ctx.db
          .update(categories)
          .set({ deletedAt: null, deletedBy: null, updatedAt: now })
          .where(and(eq(categories.id, id), isNotNull(categories.deletedAt))),
        { type: "category.restored", subjectId: id, payload: toCategory(restored) },
      ),
    ),
    () => conflict(`Cannot restore: a live category is already named '${row.name}'`),
  );
  if (changedRows(done) === 0) throw notFound("Deleted category");
  return restored;
}
