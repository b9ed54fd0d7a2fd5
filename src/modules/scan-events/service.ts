import { aliasedTable, and, eq } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { locations } from "../../db/tenant/catalog";
import { scanEvents, sessions } from "../../db/tenant/sessions";
import { apiKeys, users } from "../../db/tenant/users";
import type { ServiceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";

const expectedLocations = aliasedTable(locations, "expected_location");

/**
 * An asset's scan records across sessions, newest scan first: the session (name kept even after
 * the session is deleted), result, condition, comment, photos, where it was scanned and where it
 * was recorded, and who scanned it. The asset may be in the trash; an unknown id is a 404.
 */
export async function itemScanHistory({ db }: ServiceCtx, assetId: string, input: { limit: number; cursor?: string }) {
  const asset = await db.select({ id: assets.id }).from(assets).where(eq(assets.id, assetId)).get();
  if (!asset) throw notFound("Inventory item");
  const page = keyset(input, { by: [scanEvents.scannedAt, scanEvents.id], desc: true });
  const rows = await db
    .select({
      e: scanEvents,
      sessionStatus: sessions.status,
      locationName: locations.name,
      expectedLocationName: expectedLocations.name,
      userName: users.name,
      userEmail: users.email,
      keyName: apiKeys.name,
    })
    .from(scanEvents)
    .leftJoin(sessions, eq(sessions.id, scanEvents.sessionId))
    .leftJoin(locations, eq(locations.id, scanEvents.locationId))
    .leftJoin(expectedLocations, eq(expectedLocations.id, scanEvents.expectedLocationId))
    .leftJoin(users, eq(users.id, scanEvents.scannedBy))
    .leftJoin(apiKeys, eq(apiKeys.id, scanEvents.scannedBy))
    .where(and(eq(scanEvents.assetId, assetId), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.e.scannedAt, r.e.id],
    (r) => ({
      id: r.e.id,
      result: r.e.result,
      reason: r.e.reason,
      scannedAt: r.e.scannedAt,
      receivedAt: r.e.receivedAt,
      session: { id: r.e.sessionId, name: r.e.sessionName, status: r.sessionStatus ?? null },
      condition: r.e.condition,
      comment: r.e.comment,
      photos: r.e.photoKeys.map((key) => ({ key })),
      location: r.e.locationId ? { id: r.e.locationId, name: r.locationName ?? null } : null,
      expectedLocation: r.e.expectedLocationId
        ? { id: r.e.expectedLocationId, name: r.expectedLocationName ?? null }
        : null,
      wrongLocation: r.e.wrongLocation,
      markedAnyway: r.e.markedAnyway,
      rescan: r.e.rescan,
      unscannedAt: r.e.unscannedAt,
      supersededBy: r.e.supersededBy,
      scanner: {
        id: r.e.scannedBy,
        kind: r.keyName !== null ? ("apiKey" as const) : r.userEmail !== null ? ("user" as const) : ("other" as const),
        name: r.userName ?? r.keyName ?? null,
        email: r.userEmail ?? null,
      },
    }),
  );
}
