import { and, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { locations } from "../../db/tenant/catalog";
import { kits } from "../../db/tenant/kits";
import type { CodeHolderKind } from "../../db/tenant/labels";
import { stockItems } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";

export interface Holder {
  kind: CodeHolderKind;
  id: string;
  name: string;
  /** The holder's own tag (assets and stock items), printed beside its codes. */
  tag: string | null;
}

const NOUN: Record<CodeHolderKind, string> = {
  asset: "asset",
  kit: "kit",
  location: "location",
  stockItem: "stock item",
};

/** "asset 'Laptop 7' (ast_…)": how a 409 names who holds a code. */
export const describeHolder = (h: Pick<Holder, "kind" | "id" | "name">) => `${NOUN[h.kind]} '${h.name}' (${h.id})`;

/** The live holder, or null. */
export async function findHolder(db: TenantDb, kind: CodeHolderKind, id: string): Promise<Holder | null> {
  switch (kind) {
    case "asset": {
      const r = await db
        .select({ id: assets.id, name: assets.name, tag: assets.uniqueTag })
        .from(assets)
        .where(and(eq(assets.id, id), isNull(assets.deletedAt)))
        .get();
      return r ? { kind, ...r } : null;
    }
    case "stockItem": {
      const r = await db
        .select({ id: stockItems.id, name: stockItems.name, tag: stockItems.tag })
        .from(stockItems)
        .where(and(eq(stockItems.id, id), isNull(stockItems.deletedAt)))
        .get();
      return r ? { kind, ...r } : null;
    }
    case "kit": {
      const r = await db
        .select({ id: kits.id, name: kits.name })
        .from(kits)
        .where(and(eq(kits.id, id), isNull(kits.deletedAt)))
        .get();
      return r ? { kind, ...r, tag: null } : null;
    }
    case "location": {
      const r = await db
        .select({ id: locations.id, name: locations.name })
        .from(locations)
        .where(and(eq(locations.id, id), isNull(locations.deletedAt)))
        .get();
      return r ? { kind, ...r, tag: null } : null;
    }
  }
}

export async function requireHolder(db: TenantDb, kind: CodeHolderKind, id: string, path: string): Promise<Holder> {
  const h = await findHolder(db, kind, id);
  if (!h) throw invalidField(path, `no live ${NOUN[kind]} has the id ${id}`);
  return h;
}

/** The asset or stock item whose own tag is `value` (tags compare case-insensitively), or null. */
export async function tagHolder(db: TenantDb, value: string): Promise<Holder | null> {
  const lc = value.toLowerCase();
  const a = await db
    .select({ id: assets.id, name: assets.name, tag: assets.uniqueTag })
    .from(assets)
    .where(and(eq(sql`lower(${assets.uniqueTag})`, lc), isNull(assets.deletedAt)))
    .get();
  if (a) return { kind: "asset", ...a };
  const s = await db
    .select({ id: stockItems.id, name: stockItems.name, tag: stockItems.tag })
    .from(stockItems)
    .where(and(eq(sql`lower(${stockItems.tag})`, lc), isNull(stockItems.deletedAt)))
    .get();
  return s ? { kind: "stockItem", ...s } : null;
}
