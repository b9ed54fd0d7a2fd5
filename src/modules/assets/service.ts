import { and, eq, isNotNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { liveAsset, referencesLive, requireAsset, resolveCategory, resolveLocation } from "../../domain/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { createdChange, newAssetRow, tagTaken, updatedChange } from "./changes";
import { type AssetInput, columnsFor } from "./input";
import { generateTag, tagEquals } from "./lookup";
import { type Asset, type AssetRow, assetFieldDefs, toAsset } from "./view";
import { commitAssetWrite } from "./write";

type Ctx = ServiceCtx;
const TAG_ATTEMPTS = 5;

export { requireAsset as getAsset };

export async function getAssetByTag({ db }: Ctx, tag: string): Promise<AssetRow> {
  const row = await db.select().from(assets).where(tagEquals(tag)).get();
  if (!row) throw notFound("Inventory item");
  return row;
}

/** A deleted category/location between our read and the write fails the guard: answer as if read now (400). */
async function recheckReferences(ctx: Ctx, row: AssetRow, err: unknown): Promise<never> {
  if (guardFailed(err, "references")) {
    await resolveCategory(ctx.db, row.categoryId);
    await resolveLocation(ctx.db, row.locationId);
  }
  throw err;
}

export async function createAsset(ctx: Ctx, input: AssetInput): Promise<Asset> {
  const { db } = ctx;
  const categoryId = await resolveCategory(db, input.categoryId);
  const locationId = await resolveLocation(db, input.locationId);
  const cols = await columnsFor(ctx, input);
  const defs = await assetFieldDefs(db);
  const now = nowIso();
  for (let attempt = 1; ; attempt++) {
    const row = newAssetRow(
      { id: newId("asset"), at: now, categoryId, locationId, uniqueTag: input.uniqueTag ?? generateTag() },
      { name: input.name ?? "", ...cols },
    );
    const change = createdChange(row, defs);
    const out = change.after;
    try {
      await commitAssetWrite(ctx, {
        at: now,
        guards: [batchGuard(db, "references", referencesLive(categoryId, locationId))],
        writes: [db.insert(assets).values(row)],
        changes: [change],
      });
      return out;
    } catch (err) {
      if (!isUniqueViolation(err)) return recheckReferences(ctx, row, err);
      if (input.uniqueTag !== undefined) throw tagTaken(input.uniqueTag);
      if (attempt >= TAG_ATTEMPTS) throw conflict("Could not generate a free unique tag; pass one");
    }
  }
}

export async function updateAsset(ctx: Ctx, id: string, input: AssetInput): Promise<Asset> {
  const { db } = ctx;
  const current = await requireAsset(db, id);
  const cols = await columnsFor(ctx, input, current);
  if (input.categoryId !== undefined) cols.categoryId = await resolveCategory(db, input.categoryId);
  if (input.locationId !== undefined) cols.locationId = await resolveLocation(db, input.locationId);
  const defs = await assetFieldDefs(db);
  const now = nowIso();
  const next: AssetRow = { ...current, ...cols, updatedAt: now };
  const { before, change } = updatedChange(current, next, defs);
  if (!change) return before;
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        // Optimistic: the audit rows and event describe `current -> next`, so nobody may have written in between.
        batchGuard(
          db,
          "asset_unchanged",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.updatedAt} = ${current.updatedAt} AND ${assets.deletedAt} IS NULL)`,
        ),
        batchGuard(db, "references", referencesLive(next.categoryId, next.locationId)),
      ],
      writes: [
        db
          .update(assets)
          .set({ ...cols, updatedAt: now })
          .where(and(eq(assets.id, id), liveAsset)),
      ],
      changes: [change],
    },
    async (err) => {
      if (isUniqueViolation(err)) throw tagTaken(next.uniqueTag);
      if (guardFailed(err, "asset_unchanged")) {
        await requireAsset(db, id);
        throw conflict("The asset was changed by another request meanwhile; read it again and retry");
      }
      return recheckReferences(ctx, next, err);
    },
  );
  return change.after;
}

const holdsAssets = async (db: Ctx["db"], id: string) =>
  Boolean(
    await db
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.holderKind, "asset"), eq(assets.holderId, id), liveAsset))
      .get(),
  );
const holdsRefusal = () =>
  conflict("The asset holds checked-out assets; check them in first (check-in with cascade)", {
    reason: "holds_assets",
  });

/** Soft delete. An assigned asset must be checked in first, so nobody holds a deleted asset. */
export async function deleteAsset(ctx: Ctx, id: string): Promise<void> {
  const { db } = ctx;
  const current = await requireAsset(db, id);
  if (current.status === "assigned")
    throw conflict("The asset is checked out; check it in before deleting it", { status: current.status });
  if (await holdsAssets(db, id)) throw holdsRefusal();
  const defs = await assetFieldDefs(db);
  const now = nowIso();
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        batchGuard(
          db,
          "deletable",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.status} <> 'assigned' AND ${assets.deletedAt} IS NULL)
            AND NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.holderKind} = 'asset' AND ${assets.holderId} = ${id} AND ${assets.deletedAt} IS NULL)`,
        ),
      ],
      writes: [
        db
          .update(assets)
          .set({ deletedAt: now, deletedBy: ctx.actor, updatedAt: now })
          .where(and(eq(assets.id, id), liveAsset)),
      ],
      changes: [
        {
          before: null,
          after: toAsset(current, defs),
          action: "delete",
          auditFields: [],
          event: { type: "asset.deleted", payload: { deletedAt: now } },
          removesHealth: true,
        },
      ],
    },
    async (err) => {
      if (!guardFailed(err, "deletable")) throw err;
      await requireAsset(db, id);
      if (await holdsAssets(db, id)) throw holdsRefusal();
      throw conflict("The asset is checked out; check it in before deleting it");
    },
  );
}

/**
 * Brings a deleted asset back (also used by the trash). 409 when a live asset has taken its tag
 * meanwhile, or when its category or location is deleted (restore those first).
 */
export async function restoreAsset(ctx: Ctx, id: string): Promise<Asset> {
  const { db } = ctx;
  const row = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), isNotNull(assets.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted inventory item");
  const now = nowIso();
  const restored = toAsset({ ...row, deletedAt: null, deletedBy: null, updatedAt: now }, await assetFieldDefs(db));
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [batchGuard(db, "references", referencesLive(row.categoryId, row.locationId))],
      writes: [
        db
          .update(assets)
          .set({ deletedAt: null, deletedBy: null, updatedAt: now })
          .where(and(eq(assets.id, id), isNotNull(assets.deletedAt))),
      ],
      changes: [
        { before: null, after: restored, action: "restore", auditFields: [], event: { type: "asset.restored" } },
      ],
    },
    async (err) => {
      if (isUniqueViolation(err))
        throw conflict(`Cannot restore: a live asset already uses the unique tag '${row.uniqueTag}'`, {
          field: "uniqueTag",
        });
      if (guardFailed(err, "references"))
        throw conflict("Cannot restore: its category or location is deleted; restore that first", {
          categoryId: row.categoryId,
          locationId: row.locationId,
        });
      throw err;
    },
  );
  return restored;
}
