import { eq } from "drizzle-orm";
import { locations } from "../../db/tenant/catalog";
import { sessionItems, type sessions } from "../../db/tenant/sessions";
import type { InitInput } from "../../domain/inventory-session";
import type { Bindings } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import type { TenantRecord } from "../../tenancy/registry";
import { listScopeLocationIds } from "./scope";

/**
 * What the session's object is loaded with: the session, its scope's location ids and the
 * expected set with the scan state D1 has. At start D1 holds no scans yet; for an object loaded
 * later (a cold start after a failed load) D1's written-through state is the best there is.
 */
export async function buildInit(
  ctx: ServiceCtx & { env: Bindings; tenant: TenantRecord },
  row: typeof sessions.$inferSelect,
): Promise<InitInput> {
  const [items, scopeIds, location] = await Promise.all([
    ctx.db.select().from(sessionItems).where(eq(sessionItems.sessionId, row.id)).all(),
    listScopeLocationIds(ctx.db, row),
    row.locationId
      ? ctx.db
          .select({ id: locations.id, name: locations.name })
          .from(locations)
          .where(eq(locations.id, row.locationId))
          .get()
      : undefined,
  ]);
  return {
    tenantId: ctx.tenantId,
    sessionId: row.id,
    dbBinding: ctx.tenant.dbBinding,
    name: row.name,
    status: row.status,
    dueAt: row.dueAt,
    location: location ?? null,
    includeSubLocations: row.includeSubLocations,
    categoryId: row.categoryId,
    scopeLocationIds: scopeIds,
    startedAt: row.startedAt,
    items: items.map((i) => ({
      assetId: i.assetId,
      name: i.name,
      uniqueTag: i.uniqueTag,
      locationId: i.locationId,
      categoryId: i.categoryId,
      source: i.source,
      excluded: i.excluded,
      wrongLocation: i.wrongLocation,
      scanId: i.scanId,
      scannedAt: i.scannedAt,
      scannedBy: i.scannedBy,
      condition: i.condition,
    })),
  };
}
