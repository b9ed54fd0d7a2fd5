import type { BatchItem } from "drizzle-orm/batch";
import { type AssetStatus, assetStatusEvents, assets, assetTimeline, type TimelineType } from "../../db/tenant/assets";
import { healthRemove, healthStale, settleHealth } from "../../domain/health-engine";
import type { AuditChange } from "../../events/audit";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { insertJsonRows, updateJsonRows } from "../../platform/d1-write";
import { orderedId } from "../../platform/ids";
import { descendantsOf } from "./custody/tree";
import { type Asset, type AssetRow, assetFieldDefs, toAsset } from "./view";

/**
 * The asset describer: every verb that changes assets (create, update, delete, restore, status,
 * checkout, check-in, the person deactivation's check-ins, bulk operations) describes its change
 * as an `AssetWrite`, which compiles to the house write recipe (`src/events/write.ts`) and gets,
 * in one `db.batch` and in this order,
 *
 *   guards → row writes → health stale marks (or removal) → status events → timeline → audit → outbox
 *
 * and then the after-commit step (re-score the touched assets' health). A verb states what
 * happened; it cannot leave out the health mark, the audit rows or the event, because the recipe
 * writes them from the same description.
 */
export interface AssetWrite {
  /** When it happens: one timestamp for every row of the write. */
  at: string;
  /** Conditions the whole write depends on (`batchGuard`); first in the batch. */
  guards: BatchItem<"sqlite">[];
  /** The row writes themselves: asset insert/update, assignment rows. */
  writes: BatchItem<"sqlite">[];
  /** What happened to each asset. */
  changes: AssetChange[];
  /** Audit changes of the aggregate the write belongs to (a booking), recorded after the assets' own. */
  audits?: AuditChange[];
  /** Events of the aggregate the write belongs to (a booking, a kit), recorded after the assets' own. */
  events?: { type: string; subjectId: string; payload: Record<string, unknown> }[];
}

export type AssetAction = "create" | "update" | "delete" | "restore" | "status" | "checkout" | "checkin";

export interface AssetChange {
  /** The asset as the API shows it after the change (for a delete: as it was). */
  after: Asset;
  /** As it was before, for the audit's field comparison (null for a create, or when no field is compared). */
  before: Asset | null;
  action: AssetAction;
  /** The fields the audit compares; `[]` writes one field-less audit row (delete, restore). */
  auditFields: readonly string[];
  /** The outbox event (`asset.<verb>`); its payload is `after` plus `payload`. */
  event: { type: `asset.${string}`; payload?: Record<string, unknown> };
  /** Timeline entries (TIMELINE_TYPES, docs/assets.md#history) for this asset. */
  timeline?: { type: TimelineType; data?: Record<string, unknown> }[];
  /** A status move, recorded in asset_status_events so GET .../status-events is complete. */
  statusMove?: { from: AssetStatus; to: AssetStatus; reason: string | null; meta: Record<string, unknown> | null };
  /** A deleted asset's stored health is dropped; otherwise it is marked stale and settled after commit. */
  removesHealth?: boolean;
}

/**
 * Compiles `w` to the house write recipe (`src/events/write.ts`): the asset rows, health marks,
 * status events and timeline are its writes; the assets' audit rows and events (then the
 * aggregate's own) its audits and events; re-scoring the touched assets' health its after-commit
 * work. A caller that writes more than assets (a person's deactivation) joins it with its own
 * (`joinWrites`) and commits once.
 */
export function compileAssetWrite(ctx: ServiceCtx, w: AssetWrite): Write {
  const { db, actor } = ctx;
  const { at, changes } = w;
  const stale = changes.filter((c) => !c.removesHealth).map((c) => c.after.id);
  const statusRows = changes.flatMap((c) =>
    c.statusMove
      ? [
          {
            id: orderedId("statusEvent"),
            assetId: c.after.id,
            fromStatus: c.statusMove.from,
            toStatus: c.statusMove.to,
            reason: c.statusMove.reason,
            meta: c.statusMove.meta,
            actor,
            at,
          },
        ]
      : [],
  );
  // Rows of every change go in one statement per table (`insertJsonRows`): a write of one asset
  // and a bulk write of 100 cost the same number of statements.
  const timelineRows = changes.flatMap((c) =>
    (c.timeline ?? []).map((t) => timelineRow({ assetId: c.after.id, type: t.type, actor, at, data: t.data })),
  );
  const removed = changes.filter((c) => c.removesHealth).map((c) => c.after.id);
  return {
    guards: w.guards,
    writes: [
      ...w.writes,
      ...healthStale(db, stale, at),
      ...(removed.length ? [healthRemove(db, removed.length === 1 ? removed[0]! : removed)] : []),
      ...(statusRows.length ? [insertJsonRows(db, assetStatusEvents, statusRows)] : []),
      ...(timelineRows.length ? [insertJsonRows(db, assetTimeline, timelineRows)] : []),
    ],
    audits: [
      ...changes.map((c) => ({
        entityType: "asset",
        entityId: c.after.id,
        action: c.action,
        actor,
        at,
        before: c.before,
        after: c.after,
        fields: c.auditFields,
      })),
      ...(w.audits ?? []),
    ],
    events: [
      ...changes.map((c) => ({
        type: c.event.type,
        subjectId: c.after.id,
        actor,
        payload: { ...c.after, ...c.event.payload },
      })),
      ...(w.events ?? []).map((e) => ({ ...e, actor })),
    ],
    // The after-commit step never throws: the stale marks cover a failed re-score.
    after: stale.length ? [() => settleHealth(ctx, stale)] : [],
  };
}

/**
 * Runs `w` through the write recipe: one batch, then the after-commit step. A failed batch (a
 * guard that no longer holds, a unique index) goes to `onFailure`, which answers with the right
 * error after re-reading.
 */
export async function commitAssetWrite(
  ctx: ServiceCtx,
  given: AssetWrite,
  onFailure: (err: unknown) => Promise<never> = (err) => Promise.reject(err),
): Promise<void> {
  const w = await withCarriedChildren(ctx, given);
  await commitWrite(ctx, compileAssetWrite(ctx, w), onFailure);
}

/**
 * An asset checked out to an asset travels with it. When a write moves assets to another
 * location, their live descendants in the custody tree move too, in the same batch, each with its
 * own MOVED timeline entry, audit row and asset.updated event (`carriedBy` names the moved root).
 * Every verb that moves assets goes through here (update, bulk, CSV import, checkout), so none
 * can forget the children.
 */
export async function withCarriedChildren(ctx: ServiceCtx, w: AssetWrite): Promise<AssetWrite> {
  const moved = w.changes.filter((c) => c.before && c.before.locationId !== c.after.locationId);
  if (!moved.length) return w;
  const inWrite = new Set(w.changes.map((c) => c.after.id));
  const children = (
    await descendantsOf(
      ctx.db,
      moved.map((c) => c.after.id),
    )
  ).filter((r) => !inWrite.has(r.id));
  if (!children.length) return w;
  // Parents come before their children, so each child finds its holder's new location here.
  const to = new Map(w.changes.map((c) => [c.after.id, { loc: c.after.locationId, root: c.after.id }]));
  const defs = await assetFieldDefs(ctx.db);
  const carried: AssetRow[] = [];
  const changes: AssetChange[] = [];
  for (const child of children) {
    const parent = child.holderId ? to.get(child.holderId) : undefined;
    if (!parent || parent.loc === child.locationId) continue;
    const next = { ...child, locationId: parent.loc, updatedAt: w.at };
    to.set(child.id, parent);
    carried.push(next);
    changes.push({
      before: toAsset(child, defs),
      after: toAsset(next, defs),
      action: "update",
      auditFields: ["locationId"],
      event: { type: "asset.updated", payload: { changes: ["locationId"], carriedBy: parent.root } },
      timeline: [
        { type: "MOVED", data: { fromLocationId: child.locationId, toLocationId: parent.loc, carriedBy: parent.root } },
      ],
    });
  }
  if (!carried.length) return w;
  return {
    ...w,
    writes: [...w.writes, updateJsonRows(ctx.db, assets, "id", ["locationId", "updatedAt"], carried)],
    changes: [...w.changes, ...changes],
  };
}

export interface TimelineInput {
  assetId: string;
  type: TimelineType;
  actor: string | null;
  at: string;
  data?: Record<string, unknown>;
}

/** A timeline row, for writes outside this module that record on an asset's timeline (maintenance: MAINTENANCE_COMPLETED). */
export function timelineRow(e: TimelineInput) {
  return { id: orderedId("timeline"), assetId: e.assetId, type: e.type, actor: e.actor, at: e.at, data: e.data ?? {} };
}
