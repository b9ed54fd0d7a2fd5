import { inJson } from "../../platform/d1-write";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";
import { requireAsset } from "../assets";
import { renderLabels, type LayoutName } from "./pdf";
import { assetUrl, qrSvg } from "./qr";

/** At most this many labels per request: 1,000 render in well under the Worker's CPU limit. */
export const MAX_LABELS = 1000;

export async function itemQrSvg(db: TenantDb, id: string, origin: string): Promise<string> {
  const a = await requireAsset(db, id);
  return qrSvg(assetUrl(origin, a.uniqueTag));
}

export async function labelsPdf(
  db: TenantDb,
  origin: string,
  input: {
    layout: LayoutName;
    assetIds?: string[];
    filter?: { categoryId?: string; locationId?: string; status?: string; q?: string };
  },
): Promise<Uint8Array> {
  if (!input.assetIds === !input.filter) throw invalidField("body", "pass either assetIds or filter");
  const f = input.filter ?? {};
  const prefix = f.q ? `${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
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
        prefix
          ? sql`(lower(${assets.name}) LIKE ${prefix} ESCAPE '\\' OR lower(${assets.uniqueTag}) LIKE ${prefix} ESCAPE '\\')`
          : undefined,
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
