import { and, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { allLive, liveAsset, liveCatalog, pickRef } from "../../domain/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed, inJson, insertJsonRows, updateJsonRows } from "../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { createdChange, newAssetRow, tagTaken, updatedChange } from "./changes";
import { type AssetInput, columnsWith } from "./input";
import { generateTag } from "./lookup";
import { createAsset, updateAsset } from "./service";
import { type AssetRow, assetFieldDefs } from "./view";
import { type AssetChange, type AssetWrite, commitAssetWrite } from "./write";

/** One asset to write: a create (`targetId` null) or an update of the live asset `targetId`. */
export interface AssetUpsert {
  key: number;
  targetId: string | null;
  input: Omit<AssetInput, "imageKey">;
}

export type AssetUpsertResult =
  | { key: number; outcome: "created" | "updated"; id: string }
  | { key: number; error: ApiError };

/** Rows an update writes in full (computed from the guarded snapshot), in `updateJsonRows`. */
const UPDATED_COLUMNS = [
  "name",
  "uniqueTag",
  "serialNumber",
  "model",
  "manufacturer",
  "categoryId",
  "locationId",
  "purchaseDate",
  "purchaseCostMinor",
  "currency",
  "warrantyExpiresAt",
  "notes",
  "requestable",
  "customFields",
  "updatedAt",
] as const;

const ATTEMPTS = 3;

/**
 * Creates and updates many assets as the single routes would (POST/PATCH /inventory-items: the
 * same checks, row, audit fields, event, timeline and health marks, through the same change
 * describers), but as ONE asset write: a fixed number of reads (the targets, the custom field
 * definitions, the live categories and locations, the taken tags), then one batch with set-based
 * statements (`insertJsonRows` / `updateJsonRows`), whatever the count. Each item gets its own
 * outcome or the error the single route would have answered.
 *
 * The batch is guarded on what it was planned from (the targets' `updatedAt`, the references
 * live); a guard failure or a unique tag taken meanwhile (a concurrent create) plans again from
 * fresh reads, where the taken tag refuses its row as the single route would (409). After
 * ATTEMPTS, the items go one by one through the single verbs, which answer each race themselves.
 */
export async function upsertAssets(ctx: ServiceCtx, items: readonly AssetUpsert[]): Promise<AssetUpsertResult[]> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const plan = await planUpsert(ctx, items);
    if (!plan.write) return plan.results;
    try {
      await commitAssetWrite(ctx, plan.write);
      return plan.results;
    } catch (err) {
      if (!guardFailed(err) && !isUniqueViolation(err)) throw err;
    }
  }
  return oneByOne(ctx, items);
}

async function oneByOne(ctx: ServiceCtx, items: readonly AssetUpsert[]): Promise<AssetUpsertResult[]> {
  const out: AssetUpsertResult[] = [];
  for (const { key, targetId, input } of items) {
    try {
      const asset = targetId ? await updateAsset(ctx, targetId, input) : await createAsset(ctx, input);
      out.push({ key, outcome: targetId ? "updated" : "created", id: asset.id });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      out.push({ key, error: err });
    }
  }
  return out;
}

async function planUpsert(
  ctx: ServiceCtx,
  items: readonly AssetUpsert[],
): Promise<{ results: AssetUpsertResult[]; write: AssetWrite | null }> {
  const { db } = ctx;
  const at = nowIso();
  const targetIds = items.flatMap((i) => (i.targetId ? [i.targetId] : []));
  const newTags = items.flatMap((i) => (!i.targetId && i.input.uniqueTag ? [i.input.uniqueTag.toLowerCase()] : []));
  const given = (k: "categoryId" | "locationId") => items.flatMap((i) => (i.input[k] ? [i.input[k]] : []));
  const [current, defs, categories, locations, taken] = await Promise.all([
    targetIds.length
      ? db
          .select()
          .from(assets)
          .where(and(inJson(assets.id, targetIds), liveAsset))
          .all()
      : [],
    assetFieldDefs(db),
    liveCatalog(db, "category", given("categoryId")),
    liveCatalog(db, "location", given("locationId")),
    newTags.length
      ? db
          .select({ tag: sql<string>`lower(${assets.uniqueTag})` })
          .from(assets)
          .where(and(inJson(sql`lower(${assets.uniqueTag})`, newTags), liveAsset))
          .all()
      : [],
  ]);
  const byId = new Map(current.map((r) => [r.id, r]));
  const takenTags = new Set(taken.map((t) => t.tag));
  const results: AssetUpsertResult[] = [];
  const created: AssetRow[] = [];
  const updated: { row: AssetRow; was: string }[] = [];
  const changes: AssetChange[] = [];
  const seen = new Set<string>();

  for (const { key, targetId, input } of items) {
    try {
      if (targetId) {
        // updateAsset's order: the asset, its columns, then the references it names.
        const cur = byId.get(targetId);
        if (!cur) throw notFound("Inventory item");
        // One change per asset and write: a second item for the same asset would describe a stale `before`.
        if (seen.has(targetId)) throw conflict("The same inventory item twice in one write");
        seen.add(targetId);
        const cols = columnsWith(input, cur, defs);
        if (input.categoryId !== undefined) cols.categoryId = pickRef(categories, input.categoryId);
        if (input.locationId !== undefined) cols.locationId = pickRef(locations, input.locationId);
        const next: AssetRow = { ...cur, ...cols, updatedAt: at };
        const { change } = updatedChange(cur, next, defs);
        if (change) {
          updated.push({ row: next, was: cur.updatedAt });
          changes.push(change);
        }
        results.push({ key, outcome: "updated", id: targetId });
      } else {
        // createAsset's order: the references, the columns, then the tag.
        const categoryId = pickRef(categories, input.categoryId);
        const locationId = pickRef(locations, input.locationId);
        const cols = columnsWith(input, undefined, defs);
        const uniqueTag = input.uniqueTag ?? generateTag();
        if (takenTags.has(uniqueTag.toLowerCase())) throw tagTaken(uniqueTag);
        takenTags.add(uniqueTag.toLowerCase());
        const row = newAssetRow(
          { id: newId("asset"), at, categoryId, locationId, uniqueTag },
          { name: input.name ?? "", ...cols },
        );
        created.push(row);
        changes.push(createdChange(row, defs));
        results.push({ key, outcome: "created", id: row.id });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      results.push({ key, error: err });
    }
  }
  if (changes.length === 0) return { results, write: null };
  const written = [...created, ...updated.map((u) => u.row)];
  const snapshot = JSON.stringify(updated.map((u) => [u.row.id, u.was]));
  return {
    results,
    write: {
      at,
      guards: [
        // The updates describe `current -> next`: nobody may have written those assets in between.
        ...(updated.length
          ? [
              batchGuard(
                db,
                "upsert_snapshot",
                sql`(SELECT count(*) FROM ${assets} JOIN json_each(${snapshot}) j ON ${assets.id} = j.value ->> '$[0]'
                  AND ${assets.updatedAt} = j.value ->> '$[1]' AND ${assets.deletedAt} IS NULL) = ${updated.length}`,
              ),
            ]
          : []),
        batchGuard(
          db,
          "references",
          sql`${allLive(
            "category",
            written.map((r) => r.categoryId),
          )} AND ${allLive(
            "location",
            written.map((r) => r.locationId),
          )}`,
        ),
      ],
      writes: [
        ...(created.length ? [insertJsonRows(db, assets, created)] : []),
        ...(updated.length
          ? [
              updateJsonRows(
                db,
                assets,
                "id",
                UPDATED_COLUMNS,
                updated.map((u) => u.row),
              ),
            ]
          : []),
      ],
      changes,
    },
  };
}
