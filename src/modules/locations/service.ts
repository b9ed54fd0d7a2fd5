import { and, eq, isNotNull, isNull, not, sql } from "drizzle-orm";
import { locations } from "../../db/tenant/catalog";
import { countLiveAssetsUsing, countStockUsing, noLiveAssetUses, noLiveStockUses } from "../../domain/catalog";
import { syncRows } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { insertWhere } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { likeContains } from "../../platform/sql";
import { syncPage } from "../../platform/sync";
import { checkParent, countLiveChildren, liveChildCount, parentIsLive, parentMissing, wouldCycle } from "./tree";
import { type LocationRow, toLocation } from "./view";

type Ctx = ServiceCtx;

const live = isNull(locations.deletedAt);
const nameTaken = (name: string) => conflict(`A location named '${name}' already exists`);
const changedMeanwhile = () => conflict("The location changed while this request ran; retry");

export async function listLocations(
  { db }: Ctx,
  input: { limit: number; cursor?: string; q?: string; parentId?: string; updatedSince?: string },
) {
  if (input.updatedSince) {
    // Sync: deleted locations too (tombstones), purged ones from sync_tombstones.
    const rows = await syncRows(db, "location", locations, { ...input, updatedSince: input.updatedSince });
    return syncPage(rows, input.limit, (r) => ({ ...toLocation(r), deletedAt: r.deletedAt }));
  }
  const page = keyset(input, { by: [sql`lower(${locations.name})`, locations.id] });
  const rows = await db
    .select()
    .from(locations)
    .where(
      and(
        live,
        input.q ? likeContains(locations.name, input.q) : undefined,
        input.parentId ? eq(locations.parentId, input.parentId) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.name.toLowerCase(), r.id], toLocation);
}

export async function getLocation({ db }: Ctx, id: string): Promise<LocationRow> {
  const row = await db
    .select()
    .from(locations)
    .where(and(eq(locations.id, id), live))
    .get();
  if (!row) throw notFound("Location");
  return row;
}

export async function getDefaultLocation({ db }: Ctx): Promise<LocationRow> {
  const row = await db
    .select()
    .from(locations)
    .where(and(eq(locations.isDefault, true), live))
    .get();
  if (!row) throw notFound("Default location");
  return row;
}

export async function createLocation(
  ctx: Ctx,
  input: { name: string; description?: string | null; parentId?: string | null },
) {
  const now = nowIso();
  const row: LocationRow = {
    id: newId("location"),
    name: input.name,
    description: input.description ?? null,
    parentId: input.parentId ?? null,
    isDefault: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
  };
  // With a parent the insert is conditional on the parent being live as it runs (no check-then-write race).
  const insert = row.parentId
    ? insertWhere(ctx.db, locations, row, parentIsLive(row.parentId))
    : ctx.db.insert(locations).values(row);
  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      ifChanged(ctx, insert, {
        type: "location.created",
        subjectId: row.id,
        payload: toLocation(row),
      }),
    ),
    () => nameTaken(row.name),
  );
  if (changedRows(done) === 0) throw parentMissing();
  return row;
}

export async function updateLocation(
  ctx: Ctx,
  id: string,
  patch: { name?: string; description?: string | null; parentId?: string | null },
) {
  const current = await getLocation(ctx, id);
  const moveTo = patch.parentId;
  const next: LocationRow = { ...current, ...patch, updatedAt: nowIso() };
  // The tree rules are the UPDATE's own guard, so a concurrent move or delete cannot slip in between a
  // check and the write; only when nothing changed is the reason looked up, for a precise error.
  const guard = typeof moveTo === "string" ? and(parentIsLive(moveTo), not(wouldCycle(id, moveTo))) : undefined;
  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      ifChanged(
        ctx,
        ctx.db
          .update(locations)
          .set({ name: next.name, description: next.description, parentId: next.parentId, updatedAt: next.updatedAt })
          .where(and(eq(locations.id, id), live, guard)),
        {
          type: "location.updated",
          subjectId: id,
          payload: { ...toLocation(next), changes: Object.keys(patch) },
        },
      ),
    ),
    () => nameTaken(next.name),
  );
  if (changedRows(done) === 0) {
    await getLocation(ctx, id);
    if (typeof moveTo === "string") await checkParent(ctx.db, id, moveTo);
    throw changedMeanwhile();
  }
  return next;
}

/** Why `row` cannot be deleted, if anything: it is the default, has live children, or is in use. */
async function checkDeletable(ctx: Ctx, row: LocationRow): Promise<void> {
  if (row.isDefault) throw conflict("The default location cannot be deleted");
  const children = await countLiveChildren(ctx.db, row.id);
  if (children > 0)
    throw conflict(`The location contains ${children} location(s); move or delete them first`, { children });
  const users = await countLiveAssetsUsing(ctx.db, { locationId: row.id });
  if (users > 0)
    throw conflict(`The location holds ${users} asset(s); move them to another location first`, { assets: users });
  const stock = await countStockUsing(ctx.db, { locationId: row.id });
  if (stock > 0)
    throw conflict(`The location holds units of ${stock} stock item(s); transfer or issue them first`, {
      stockItems: stock,
    });
}

/** Soft delete, refused for the default location and one holding live locations, assets or on-hand stock. */
export async function deleteLocation(ctx: Ctx, id: string) {
  const current = await getLocation(ctx, id);
  await checkDeletable(ctx, current);
  const now = nowIso();
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(locations)
        .set({ deletedAt: now, deletedBy: ctx.actor, updatedAt: now })
        .where(
          and(
            eq(locations.id, id),
            live,
            eq(locations.isDefault, false),
            sql`${liveChildCount(id)} = 0`,
            noLiveAssetUses({ locationId: id }),
            noLiveStockUses({ locationId: id }),
          ),
        ),
      {
        type: "location.deleted",
        subjectId: id,
        payload: { ...toLocation(current), deletedAt: now },
      },
    ),
  );
  if (changedRows(done) === 0) {
    await checkDeletable(ctx, await getLocation(ctx, id));
    throw changedMeanwhile();
  }
}

const restoreBlocked = (parentId: string) =>
  conflict("Cannot restore: its parent location is deleted; restore the parent first", { parentId });

async function getDeletedLocation({ db }: Ctx, id: string): Promise<LocationRow> {
  const row = await db
    .select()
    .from(locations)
    .where(and(eq(locations.id, id), isNotNull(locations.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted location");
  return row;
}

/** Restores in place under its old parent; refused (409) while that parent is deleted, so the tree never dangles. */
export async function restoreLocation(ctx: Ctx, id: string) {
  const row = await getDeletedLocation(ctx, id);
  const now = nowIso();
  const restored: LocationRow = { ...row, deletedAt: null, deletedBy: null, updatedAt: now };
  const done = await onUniqueViolation(
    commitWrite(
      ctx,
      ifChanged(
        ctx,
        ctx.db
          .update(locations)
          .set({ deletedAt: null, deletedBy: null, updatedAt: now })
          .where(
            and(
              eq(locations.id, id),
              isNotNull(locations.deletedAt),
              row.parentId ? parentIsLive(row.parentId) : undefined,
            ),
          ),
        {
          type: "location.restored",
          subjectId: id,
          payload: toLocation(restored),
        },
      ),
    ),
    () => conflict(`Cannot restore: a live location is already named '${row.name}'`),
  );
  if (changedRows(done) === 0) {
    await getDeletedLocation(ctx, id);
    throw row.parentId ? restoreBlocked(row.parentId) : changedMeanwhile();
  }
  return restored;
}
