import { assetStatusEvents, type AssetStatus } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { chunk } from "../../platform/d1";
import { orderedId } from "../../platform/ids";

export interface StatusEventInput {
  assetId: string;
  fromStatus: AssetStatus;
  toStatus: AssetStatus;
  /** Free text from POST .../status, or the verb that moved the asset ("checkout", "checkin", "person_deactivated"). */
  reason: string | null;
  meta: Record<string, unknown> | null;
  actor: string;
  at: string;
}

/** 8 columns per row: 12 rows keep one INSERT under D1's 100 bound parameters. */
const ROWS_PER_INSERT = 12;

export const statusEventRow = (e: StatusEventInput) => ({ id: orderedId("statusEvent"), ...e });

/**
 * The asset_status_events inserts for rows built with `statusEventRow`, chunked for D1's parameter cap.
 * Every status change writes one (POST .../status, checkout, check-in, deactivation check-ins), in
 * the same `db.batch` as the change, so GET .../status-events is the complete list.
 */
export function statusEventInserts(db: TenantDb, rows: readonly ReturnType<typeof statusEventRow>[]) {
  return chunk(rows, ROWS_PER_INSERT).map((part) => db.insert(assetStatusEvents).values(part));
}
