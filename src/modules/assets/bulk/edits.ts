import { and, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assets } from "../../../db/tenant/assets";
import { categories, locations } from "../../../db/tenant/catalog";
import { resolveCategory, resolveLocation } from "../../../domain/catalog";
import type { ServiceCtx } from "../../../http/service-context";
import { allOf, batchGuard, inJson } from "../../../platform/d1-write";
import { ApiError, conflict } from "../../../platform/errors";
import { updatedChange } from "../changes";
import type { PendingAcceptance } from "../custody";
import { columnsFor } from "../input";
import { type AssetRow, toAsset } from "../view";
import type { AssetChange } from "../write";
import type { BulkInput, Verdict } from "./input";

/** The bulk restore and update plans, and what every action plan is made of (bulk-actions.ts holds the others). */

export interface ActionPlan {
  decide(row: AssetRow): Verdict;
  guards(ids: string[]): BatchItem<"sqlite">[];
  writes(ids: string[], rows: AssetRow[]): BatchItem<"sqlite">[];
  /** The pending hand-overs the changed assets need (checkout to a person, check-in from one), in the same batch. */
  acceptance?(ids: string[], rows: AssetRow[]): Promise<PendingAcceptance[]>;
}

export type Defs = Parameters<typeof toAsset>[1];
export const unchanged = (row: AssetRow, defs: Defs): Verdict => ({ asset: toAsset(row, defs), change: null });
export const changeVerdict = (change: AssetChange): Verdict => ({ asset: change.after, change });

/** Restore: 409 when a live asset holds the tag, or the category or location is deleted (as the single route). */
export async function restorePlan(ctx: ServiceCtx, found: AssetRow[], at: string, defs: Defs): Promise<ActionPlan> {
  const { db } = ctx;
  const tags = found.map((r) => r.uniqueTag.toLowerCase());
  const [taken, deadCategories, deadLocations] = await Promise.all([
    tags.length
      ? db
          .select({ tag: assets.uniqueTag })
          .from(assets)
          .where(and(isNull(assets.deletedAt), inJson(sql`lower(${assets.uniqueTag})`, tags)))
          .all()
      : [],
    db.select({ id: categories.id }).from(categories).where(isNotNull(categories.deletedAt)).all(),
    db.select({ id: locations.id }).from(locations).where(isNotNull(locations.deletedAt)).all(),
  ]);
  const takenTags = new Set(taken.map((t) => t.tag.toLowerCase()));
  const dead = new Set([...deadCategories, ...deadLocations].map((r) => r.id));
  const claimed = new Set<string>();
  return {
    decide: (row) => {
      const tag = row.uniqueTag.toLowerCase();
      if (takenTags.has(tag) || claimed.has(tag))
        return {
          error: conflict(`Cannot restore: a live asset already uses the unique tag '${row.uniqueTag}'`, {
            field: "uniqueTag",
          }),
        };
      if (dead.has(row.categoryId) || dead.has(row.locationId))
        return {
          error: conflict("Cannot restore: its category or location is deleted; restore that first", {
            categoryId: row.categoryId,
            locationId: row.locationId,
          }),
        };
      claimed.add(tag);
      const restored = toAsset({ ...row, deletedAt: null, deletedBy: null, updatedAt: at }, defs);
      return changeVerdict({
        before: null,
        after: restored,
        action: "restore",
        auditFields: [],
        event: { type: "asset.restored" },
      });
    },
    // The references read above must still be live when the batch runs.
    guards: (ids) => [
      batchGuard(
        db,
        "references",
        sql`NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${inJson(assets.id, ids)} AND (
          EXISTS (SELECT 1 FROM ${categories} WHERE ${categories.id} = ${assets.categoryId} AND ${categories.deletedAt} IS NOT NULL)
          OR EXISTS (SELECT 1 FROM ${locations} WHERE ${locations.id} = ${assets.locationId} AND ${locations.deletedAt} IS NOT NULL)))`,
      ),
    ],
    writes: (ids) => [
      db.update(assets).set({ deletedAt: null, deletedBy: null, updatedAt: at }).where(inJson(assets.id, ids)),
    ],
  };
}

/** Update: the PATCH fields on every asset (uniqueTag and customFields are per asset, so not in bulk). */
export async function updatePlan(
  ctx: ServiceCtx,
  input: Extract<BulkInput, { action: "update" }>,
  found: AssetRow[],
  at: string,
  defs: Defs,
): Promise<ActionPlan> {
  const { db } = ctx;
  const { action: _a, ids: _i, imageKey, ...fields } = input;
  const extra: Partial<AssetRow> = {};
  if (input.categoryId !== undefined) extra.categoryId = await resolveCategory(db, input.categoryId);
  if (input.locationId !== undefined) extra.locationId = await resolveLocation(db, input.locationId);
  // The image is checked once (an R2 read), then set on every asset.
  if (imageKey !== undefined) Object.assign(extra, await columnsFor(ctx, { imageKey }, found[0]));
  // Per-asset normalisation (cost in the asset's currency). Without customFields and imageKey,
  // columnsFor reads nothing, so this loop costs no round trips.
  const colsOf = new Map<string, Partial<AssetRow> | ApiError>();
  for (const row of found) {
    colsOf.set(
      row.id,
      await columnsFor(ctx, fields, row).then(
        (c) => ({ ...c, ...extra }),
        (err: unknown) => {
          if (err instanceof ApiError) return err;
          throw err;
        },
      ),
    );
  }
  const nextCols = new Map<string, Partial<AssetRow>>();
  return {
    decide: (row) => {
      const cols = colsOf.get(row.id)!;
      if (cols instanceof ApiError) return { error: cols };
      const next: AssetRow = { ...row, ...cols, updatedAt: at };
      // The single PATCH's description, its refusals included (a held asset does not move alone).
      let described: ReturnType<typeof updatedChange>;
      try {
        described = updatedChange(row, next, defs);
      } catch (err) {
        if (err instanceof ApiError) return { error: err };
        throw err;
      }
      if (!described.change) return unchanged(row, defs);
      nextCols.set(row.id, cols);
      return changeVerdict(described.change);
    },
    // A category or location moved to must still be live when the batch runs.
    guards: () => {
      const conds: SQL[] = [];
      if (extra.categoryId)
        conds.push(
          sql`EXISTS (SELECT 1 FROM ${categories} WHERE ${categories.id} = ${extra.categoryId} AND ${categories.deletedAt} IS NULL)`,
        );
      if (extra.locationId)
        conds.push(
          sql`EXISTS (SELECT 1 FROM ${locations} WHERE ${locations.id} = ${extra.locationId} AND ${locations.deletedAt} IS NULL)`,
        );
      return conds.length ? [batchGuard(db, "references", allOf(conds))] : [];
    },
    // Assets whose new columns are equal share one UPDATE (with cost in another currency they differ).
    writes: (ids) => {
      const groups = new Map<string, string[]>();
      for (const id of ids) {
        const key = JSON.stringify(nextCols.get(id));
        groups.set(key, [...(groups.get(key) ?? []), id]);
      }
      return [...groups].map(([cols, group]) =>
        db
          .update(assets)
          .set({ ...(JSON.parse(cols) as Partial<AssetRow>), updatedAt: at })
          .where(inJson(assets.id, group)),
      );
    },
  };
}
