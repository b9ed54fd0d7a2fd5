import { and, eq, sql } from "drizzle-orm";
import { kitMembers, kits } from "../../db/tenant/kits";
import type { offboardingItems } from "../../db/tenant/offboarding";
import { requests } from "../../db/tenant/requests";
import { stockItems, stockMovements } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";

export type ItemRow = typeof offboardingItems.$inferSelect;

/** An asset the person holds, directly or inside another asset they hold (the custody tree). */
interface HeldAsset {
  id: string;
  name: string;
  tag: string;
  parent: string | null;
}

/**
 * Every live asset in the person's custody: held by them, and, recursively, checked out to an asset
 * they hold. One recursive read over assets_holder_idx; UNION stops on a repeated id.
 */
export async function heldAssets(db: TenantDb, personId: string): Promise<HeldAsset[]> {
  return db.all<HeldAsset>(sql`WITH RECURSIVE held(id, parent) AS (
      SELECT id, NULL FROM assets WHERE holder_kind = 'person' AND holder_id = ${personId} AND deleted_at IS NULL
      UNION SELECT a.id, held.id FROM assets a JOIN held ON a.holder_kind = 'asset' AND a.holder_id = held.id AND a.deleted_at IS NULL
    ) SELECT held.id AS id, a.name AS name, a.unique_tag AS tag, held.parent AS parent
      FROM held JOIN assets a ON a.id = held.id ORDER BY a.name, a.id`);
}

/** The kits with at least one member among `assetIds`, and those members. */
async function kitsOf(db: TenantDb, assetIds: readonly string[]) {
  if (!assetIds.length) return [];
  return db
    .select({ kitId: kits.id, name: kits.name, assetId: kitMembers.assetId })
    .from(kitMembers)
    .innerJoin(kits, eq(kits.id, kitMembers.kitId))
    .where(and(inJson(kitMembers.assetId, assetIds), sql`${kits.deletedAt} IS NULL`))
    .all();
}

/** The person's open returnable stock issues (units still out). */
const openIssues = (db: TenantDb, personId: string) =>
  db
    .select({
      id: stockMovements.id,
      itemId: stockMovements.itemId,
      open: stockMovements.openQuantity,
      name: stockItems.name,
    })
    .from(stockMovements)
    .innerJoin(stockItems, eq(stockItems.id, stockMovements.itemId))
    .where(and(eq(stockMovements.personId, personId), sql`${stockMovements.openQuantity} > 0`))
    .orderBy(stockMovements.id)
    .all();

/** The person's open requests (asked for, not yet answered). */
const openRequests = (db: TenantDb, personId: string) =>
  db
    .select({ id: requests.id, kind: requests.kind })
    .from(requests)
    .where(and(eq(requests.personId, personId), eq(requests.status, "open")))
    .orderBy(requests.id)
    .all();

/** What the person holds now, as the case's item rows (all outstanding). */
export async function holdingsOf(db: TenantDb, caseId: string, personId: string): Promise<ItemRow[]> {
  const [assetRows, issues, asks] = await Promise.all([
    heldAssets(db, personId),
    openIssues(db, personId),
    openRequests(db, personId),
  ]);
  const kitRows = await kitsOf(
    db,
    assetRows.map((a) => a.id),
  );
  const base = { caseId, state: "outstanding" as const, returnedAt: null, parentAssetId: null, quantity: null };
  const kitsSeen = new Map<string, string>();
  for (const k of kitRows) kitsSeen.set(k.kitId, k.name);
  return [
    ...assetRows.map((a) => ({
      ...base,
      kind: "asset" as const,
      itemId: a.id,
      name: a.name,
      reference: a.tag,
      parentAssetId: a.parent,
    })),
    ...[...kitsSeen].map(([id, name]) => ({ ...base, kind: "kit" as const, itemId: id, name, reference: null })),
    ...issues.map((i) => ({
      ...base,
      kind: "stock" as const,
      itemId: i.id,
      name: i.name,
      reference: i.itemId,
      quantity: i.open,
    })),
    ...asks.map((r) => ({
      ...base,
      kind: "request" as const,
      itemId: r.id,
      name: `Request (${r.kind})`,
      reference: null,
    })),
  ];
}

/**
 * Which of a case's outstanding items came back: an asset no longer in the person's custody, a kit
 * none of whose members is, a stock issue with no units out, a request no longer open.
 */
export async function returnedOf(db: TenantDb, personId: string, outstanding: readonly ItemRow[]): Promise<ItemRow[]> {
  if (!outstanding.length) return [];
  const held = new Set((await heldAssets(db, personId)).map((a) => a.id));
  const of = (kind: ItemRow["kind"]) => outstanding.filter((i) => i.kind === kind).map((i) => i.itemId);
  const kitIds = of("kit");
  const kitsStillHeld = new Set(
    kitIds.length
      ? (
          await db
            .select({ kitId: kitMembers.kitId, assetId: kitMembers.assetId })
            .from(kitMembers)
            .where(inJson(kitMembers.kitId, kitIds))
            .all()
        )
          .filter((m) => held.has(m.assetId))
          .map((m) => m.kitId)
      : [],
  );
  const issueIds = of("stock");
  const stillOut = new Set(
    issueIds.length
      ? (
          await db
            .select({ id: stockMovements.id })
            .from(stockMovements)
            .where(and(inJson(stockMovements.id, issueIds), sql`${stockMovements.openQuantity} > 0`))
            .all()
        ).map((r) => r.id)
      : [],
  );
  const requestIds = of("request");
  const stillOpen = new Set(
    requestIds.length
      ? (
          await db
            .select({ id: requests.id })
            .from(requests)
            .where(and(inJson(requests.id, requestIds), eq(requests.status, "open")))
            .all()
        ).map((r) => r.id)
      : [],
  );
  const pending = { asset: held, kit: kitsStillHeld, stock: stillOut, request: stillOpen } as const;
  return outstanding.filter((i) => !pending[i.kind].has(i.itemId));
}
