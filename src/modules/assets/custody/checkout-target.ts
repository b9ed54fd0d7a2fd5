import { type SQL, sql } from "drizzle-orm";
import { assets } from "../../../db/tenant/assets";
import {
  isLive,
  offboardingRefusal,
  type PersonRow,
  peopleActive,
  requireAsset,
  requireLocation,
  requirePerson,
} from "../../../domain/catalog";
import type { TenantDb } from "../../../env";
import { type ApiError, conflict } from "../../../platform/errors";
import { CHECKOUT_FROM, notCheckable } from "../status";
import type { AssetRow } from "../view";
import type { Holder } from "./checkout-change";
import { holdersAbove, notAboveTarget } from "./tree";

/** The checkout body's target: exactly one of a person (the default form), a location or an asset. */
export type CheckoutTarget = { personId: string } | { locationId: string } | { assetId: string };

/** Why `person` cannot receive assets (409), or null. */
export function personRefusal(person: PersonRow): ApiError | null {
  const personId = person.id;
  if (person.deletedAt)
    return conflict("The person is deleted; restore them before checking assets out to them", { personId });
  if (person.status !== "active")
    return conflict(`The person is ${person.status}; activate them before checking assets out to them`, { personId });
  return null;
}

/** Why `asset` cannot be checked out (409), or null. */
export function checkoutRefusal(asset: AssetRow): ApiError | null {
  if (asset.status === "assigned")
    return conflict("The asset is already checked out; check it in first", {
      assigneeId: asset.assigneeId,
      holder: asset.holderKind ? { kind: asset.holderKind, id: asset.holderId, name: asset.holderName } : null,
    });
  if (!CHECKOUT_FROM.includes(asset.status)) return notCheckable(asset);
  return null;
}

/**
 * The holder a target names, read now (400 for an unknown id, 409 for one that cannot hold assets),
 * and the condition the checkout's batch guard re-checks so a change meanwhile fails the write.
 */
export async function resolveTarget(
  db: TenantDb,
  assetId: string,
  target: CheckoutTarget,
): Promise<{ holder: Holder; stillValid: SQL }> {
  if ("personId" in target) {
    const person = await requirePerson(db, target.personId);
    const refusal = personRefusal(person) ?? (await offboardingRefusal(db, person.id));
    if (refusal) throw refusal;
    return {
      holder: { kind: "person", id: person.id, name: person.name },
      stillValid: peopleActive([person.id]),
    };
  }
  if ("locationId" in target) {
    const loc = await requireLocation(db, target.locationId);
    return {
      holder: { kind: "location", id: loc.id, name: loc.name, locationId: loc.id },
      stillValid: isLive("location", loc.id),
    };
  }
  const parent = await requireAsset(db, target.assetId, "body.assetId");
  if (parent.status === "retired" || parent.status === "lost")
    throw conflict(`The target asset is ${parent.status}; it cannot hold other assets`, { assetId: parent.id });
  const chain = await holdersAbove(db, parent.id);
  if (chain.includes(assetId))
    throw conflict("An asset cannot be checked out to itself or into its own subtree", {
      assetId: parent.id,
      chain,
    });
  return {
    holder: { kind: "asset", id: parent.id, name: parent.name, locationId: parent.locationId },
    // The parent's location is pinned too: if it moved meanwhile, the child would land in the wrong place.
    stillValid: sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${parent.id} AND ${assets.locationId} = ${parent.locationId} AND ${assets.status} NOT IN ('retired', 'lost') AND ${assets.deletedAt} IS NULL)
      AND ${notAboveTarget(assetId, parent.id)}`,
  };
}
