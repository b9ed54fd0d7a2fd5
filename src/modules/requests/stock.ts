import { and, desc, eq, isNull } from "drizzle-orm";
import { locations } from "../../db/tenant/catalog";
import { stockItems, stockLevels } from "../../db/tenant/stock";
import { requireLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";

/**
 * Stock requests (docs/requests.md#stock-requests): a quantity of a stock item, now. Stock is not booked, so nothing is
 * held for an open request: what is on hand is checked when the request is approved, and the
 * ledger's guard in the approval's own batch keeps it exact (docs/requests.md).
 */

/**
 * Creation: the item is live and requestable, for every role. Decision: unlike an asset, which
 * owners, admins and members may ask for whatever its flag, a stock item is requested only when
 * the workspace opened it to requests; whoever holds stock:write issues the others directly.
 */
export async function requireRequestableStock(db: TenantDb, input: { stockItemId: string; locationId?: string }) {
  const item = await db
    .select({ requestable: stockItems.requestable })
    .from(stockItems)
    .where(and(eq(stockItems.id, input.stockItemId), isNull(stockItems.deletedAt)))
    .get();
  if (!item?.requestable)
    throw invalidField("body.stockItemId", `unknown or not requestable stock item '${input.stockItemId}'`);
  if (input.locationId) await requireLocation(db, input.locationId, "body.locationId");
}

/**
 * Approval: where the units come from, and the id of the issue movement to be. The approver's
 * `locationId` wins, then the one asked for; else the live location with the most on hand, and a
 * 409 naming what is on hand when no single location has enough. The quantity read here is a
 * hint: the issue's guard in the approval batch decides.
 */
export async function stockIssuePlan(
  db: TenantDb,
  r: { stockItemId: string | null; quantity: number | null; locationId: string | null },
  chosen: string | undefined,
) {
  const movementId = newId("stockMovement");
  if (chosen) {
    await requireLocation(db, chosen, "body.locationId");
    return { locationId: chosen, movementId };
  }
  if (r.locationId) return { locationId: r.locationId, movementId };
  const item = await db
    .select({ name: stockItems.name, unit: stockItems.unit, onHand: stockItems.onHand })
    .from(stockItems)
    .where(and(eq(stockItems.id, r.stockItemId!), isNull(stockItems.deletedAt)))
    .get();
  if (!item) throw conflict("The stock item was deleted; it can no longer be issued", { reason: "unavailable" });
  const best = await db
    .select({ locationId: stockLevels.locationId, quantity: stockLevels.quantity, name: locations.name })
    .from(stockLevels)
    .innerJoin(locations, and(eq(locations.id, stockLevels.locationId), isNull(locations.deletedAt)))
    .where(eq(stockLevels.itemId, r.stockItemId!))
    .orderBy(desc(stockLevels.quantity), stockLevels.locationId)
    .get();
  const requested = r.quantity!;
  if (!best || best.quantity < requested)
    throw conflict(
      `Not enough stock in one place: ${item.onHand} ${item.unit} of '${item.name}' on hand${best ? `, at most ${best.quantity} at '${best.name}'` : ""}; ${requested} requested`,
      {
        reason: "short",
        itemId: r.stockItemId,
        onHand: item.onHand,
        locationId: best?.locationId ?? null,
        available: best?.quantity ?? 0,
        requested,
      },
    );
  return { locationId: best.locationId, movementId };
}
