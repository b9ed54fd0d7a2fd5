import { assetTimeline, type TimelineType } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { orderedId } from "../../platform/ids";

export interface TimelineInput {
  assetId: string;
  type: TimelineType;
  actor: string | null;
  at: string;
  data?: Record<string, unknown>;
}

/**
 * The insert for one asset timeline row (SPEC 2.4 types). Put it in the same `db.batch` as the
 * write it describes; other modules use it too (sessions: VERIFIED, maintenance: MAINTENANCE_COMPLETED).
 */
export function timelineEntry(db: TenantDb, e: TimelineInput) {
  return db.insert(assetTimeline).values(timelineRow(e));
}

export function timelineRow(e: TimelineInput) {
  return { id: orderedId("timeline"), assetId: e.assetId, type: e.type, actor: e.actor, at: e.at, data: e.data ?? {} };
}
