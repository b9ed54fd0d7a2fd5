import { sql } from "drizzle-orm";
import type { HealthBasis } from "../../../domain/health-engine";
import type { TenantDb } from "../../../env";
import { type ListAssetsInput, listAssets } from "../../assets";
import { liveDefinitions } from "../../custom-fields";
import { codeCellsOf } from "../../labels";
import type { Cell } from "../csv";
import { customCell } from "../custom-cells";
import { namesOf } from "../names";

/** Assets per page of the export: about 3 statements a page, so 100,000 assets stay far below a Worker's query budget. */
export const EXPORT_PAGE = 1000;

export const ASSET_COLUMNS = [
  "id",
  "name",
  "uniqueTag",
  "serialNumber",
  "model",
  "manufacturer",
  "categoryId",
  "category",
  "locationId",
  "location",
  "status",
  "assigneeId",
  "assignee",
  "holderKind",
  "holderId",
  "holder",
  "requestable",
  "assignedAt",
  "dueBackAt",
  "purchaseDate",
  "purchaseCost",
  "currency",
  "warrantyExpiresAt",
  "notes",
  "lastVerifiedAt",
  "createdAt",
  "updatedAt",
  "healthScore",
  "healthBadge",
  // The asset's codes besides its tag (`code128:C128-DRILL; ean13:4006381333931`, docs/labels.md).
  "codes",
] as const;

export type AssetExportFilters = Omit<ListAssetsInput, "limit" | "cursor">;

/**
 * The asset export: the list's own query with its filters and order (src/modules/assets/list.ts),
 * read EXPORT_PAGE rows at a time through its cursor; custom fields are columns after the built-in
 * ones, headed by their keys (what the import matches).
 */
export async function assetExport(db: TenantDb, filters: AssetExportFilters, basis: HealthBasis) {
  const [defs, categories, locations] = await Promise.all([
    liveDefinitions(db, "asset"),
    namesOf(db, sql`SELECT id, name FROM categories`),
    namesOf(db, sql`SELECT id, name FROM locations`),
  ]);
  const header = [...ASSET_COLUMNS, ...defs.map((d) => d.key)];
  async function* pages(): AsyncGenerator<Cell[][]> {
    let cursor: string | undefined;
    do {
      const page = await listAssets(db, { ...filters, limit: EXPORT_PAGE, cursor }, basis);
      const assigneeIds = [...new Set(page.items.map((a) => a.assigneeId).filter((v): v is string => v !== null))];
      const people = assigneeIds.length
        ? await namesOf(
            db,
            sql`SELECT id, name FROM people WHERE id IN (SELECT value FROM json_each(${JSON.stringify(assigneeIds)}))`,
          )
        : new Map<string, string>();
      const codes = await codeCellsOf(
        db,
        "asset",
        page.items.map((a) => a.id),
      );
      yield page.items.map((a) => [
        a.id,
        a.name,
        a.uniqueTag,
        a.serialNumber,
        a.model,
        a.manufacturer,
        a.categoryId,
        categories.get(a.categoryId),
        a.locationId,
        locations.get(a.locationId),
        a.status,
        a.assigneeId,
        a.assigneeId ? people.get(a.assigneeId) : null,
        a.holder?.kind ?? null,
        a.holder?.id ?? null,
        a.holder?.name ?? null,
        a.requestable,
        a.assignedAt,
        a.dueBackAt,
        a.purchaseDate,
        a.purchaseCost,
        a.currency,
        a.warrantyExpiresAt,
        a.notes,
        a.lastVerifiedAt,
        a.createdAt,
        a.updatedAt,
        // Exports list live assets, which always carry health (only sync tombstones have none).
        a.health?.score ?? null,
        a.health?.badge ?? null,
        codes.get(a.id) ?? null,
        ...defs.map((d) => customCell(a.customFields[d.key])),
      ]);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return { header, pages: pages() };
}
