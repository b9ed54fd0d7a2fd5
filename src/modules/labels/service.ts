import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { kits } from "../../db/tenant/kits";
import { stockItems } from "../../db/tenant/stock";
import { liveLocation, requireAsset } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import { invalidField, notFound } from "../../platform/errors";
import { assetTextMatch } from "../assets";
import { type LayoutName, renderLabels } from "./pdf";
import { assetUrl, kitUrl, locationUrl, qrSvg, stockUrl } from "./qr";

/** At most this many labels per request: 1,000 render in well under the Worker's CPU limit. */
export const MAX_LABELS = 1000;

export async function itemQrSvg(db: TenantDb, id: string, origin: string): Promise<string> {
  const a = await requireAsset(db, id);
  return qrSvg(assetUrl(origin, a.uniqueTag));
}

export async function stockItemQrSvg(db: TenantDb, id: string, origin: string): Promise<string> {
  const row = await db
    .select({ tag: stockItems.tag })
    .from(stockItems)
    .where(and(eq(stockItems.id, id), isNull(stockItems.deletedAt)))
    .get();
  if (!row) throw notFound("Stock item");
  return qrSvg(stockUrl(origin, row.tag));
}

export async function kitQrSvg(db: TenantDb, id: string, origin: string): Promise<string> {
  const row = await db
    .select({ id: kits.id })
    .from(kits)
    .where(and(eq(kits.id, id), isNull(kits.deletedAt)))
    .get();
  if (!row) throw notFound("Kit");
  return qrSvg(kitUrl(origin, row.id));
}

export async function locationQrSvg(db: TenantDb, id: string, origin: string): Promise<string> {
  if (!(await liveLocation(db, id))) throw notFound("Location");
  return qrSvg(locationUrl(origin, id));
}

export async function labelsPdf(
  db: TenantDb,
  origin: string,
  input: {
    layout: LayoutName;
    assetIds?: string[];
    stockItemIds?: string[];
    filter?: { categoryId?: string; locationId?: string; status?: string; q?: string };
  },
): Promise<Uint8Array> {
  if ([input.assetIds, input.stockItemIds, input.filter].filter(Boolean).length !== 1)
    throw invalidField("body", "pass exactly one of assetIds, stockItemIds and filter");
  if (input.stockItemIds) return stockLabels(db, origin, input.layout, input.stockItemIds);
  const f = input.filter ?? {};
  const rows = await db
    .select({ id: assets.id, name: assets.name, uniqueTag: assets.uniqueTag })
    .from(assets)
    .where(
      and(
        isNull(assets.deletedAt),
        input.assetIds ? inJson(assets.id, input.assetIds) : undefined,
        f.categoryId ? eq(assets.categoryId, f.categoryId) : undefined,
        f.locationId ? eq(assets.locationId, f.locationId) : undefined,
        f.status ? sql`${assets.status} = ${f.status}` : undefined,
        f.q ? assetTextMatch(f.q) : undefined,
      ),
    )
    .orderBy(asc(assets.id))
    .limit(MAX_LABELS + 1)
    .all();
  if (rows.length > MAX_LABELS) throw invalidField("body.filter", `matches more than ${MAX_LABELS} items; narrow it`);
  if (input.assetIds) {
    const missing = input.assetIds.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length)
      throw invalidField("body.assetIds", `unknown or deleted inventory items: ${missing.join(", ")}`);
    const order = new Map(input.assetIds.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  return renderLabels(
    rows.map((r) => ({ name: r.name, uniqueTag: r.uniqueTag, url: assetUrl(origin, r.uniqueTag) })),
    input.layout,
  );
}

/** Stock item labels, in the order asked; the QR code opens `/s/<tag>` on the workspace host. */
async function stockLabels(db: TenantDb, origin: string, layout: LayoutName, ids: string[]) {
  const rows = await db
    .select({ id: stockItems.id, name: stockItems.name, tag: stockItems.tag })
    .from(stockItems)
    .where(and(isNull(stockItems.deletedAt), inJson(stockItems.id, ids)))
    .all();
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw invalidField("body.stockItemIds", `unknown or deleted stock items: ${missing.join(", ")}`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return renderLabels(
    ids.map((id) => byId.get(id)!).map((r) => ({ name: r.name, uniqueTag: r.tag, url: stockUrl(origin, r.tag) })),
    layout,
  );
}
