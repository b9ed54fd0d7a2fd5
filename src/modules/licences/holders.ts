import { sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { licenceLots, licenceProducts } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import { type SeatRow, toSeat } from "./view";

/** Recounts the open seats of lots into `assigned_count`, in the batch that changed them. */
export const recountLots = (db: TenantDb, lotIds: readonly string[]) =>
  db
    .update(licenceLots)
    .set({
      assignedCount: sql`(SELECT count(*) FROM licence_seats s WHERE s.lot_id = ${licenceLots.id} AND s.unassigned_at IS NULL)`,
    })
    .where(inJson(licenceLots.id, [...new Set(lotIds)]));

/** Seats as the API shows them: with their product's name, holder's name and lot's currency (three reads at most). */
export async function presentSeats(db: TenantDb, rows: readonly SeatRow[]) {
  if (!rows.length) return [];
  const personIds = rows.filter((r) => r.holderKind === "person").map((r) => r.holderId);
  const assetIds = rows.filter((r) => r.holderKind === "asset").map((r) => r.holderId);
  const [names, products, lots] = await Promise.all([
    db
      .select({ id: people.id, name: people.name })
      .from(people)
      .where(inJson(people.id, personIds))
      .union(db.select({ id: assets.id, name: assets.name }).from(assets).where(inJson(assets.id, assetIds)))
      .all(),
    db
      .select({ id: licenceProducts.id, name: licenceProducts.name })
      .from(licenceProducts)
      .where(inJson(licenceProducts.id, [...new Set(rows.map((r) => r.productId))]))
      .all(),
    db
      .select({ id: licenceLots.id, currency: licenceLots.currency })
      .from(licenceLots)
      .where(inJson(licenceLots.id, [...new Set(rows.map((r) => r.lotId))]))
      .all(),
  ]);
  const name = new Map(names.map((n) => [n.id, n.name]));
  const product = new Map(products.map((p) => [p.id, p.name]));
  const currency = new Map(lots.map((l) => [l.id, l.currency]));
  return rows.map((r) =>
    toSeat(r, {
      productName: product.get(r.productId) ?? null,
      holderName: name.get(r.holderId) ?? null,
      currency: currency.get(r.lotId) ?? null,
    }),
  );
}
