import type { ItemRow } from "./session-store";
import type { ScanCommand, ScanReason, ScanResult } from "./types";

/** The scan rows the engine writes besides accepted ones (accepted-writes.ts), and the one it reads back. */

export type ScanRow = {
  id: string;
  client_scan_id: string | null;
  asset_id: string | null;
  code: string | null;
  item_name: string | null;
  item_tag: string | null;
  result: ScanResult;
  reason: ScanReason | null;
  scanned_at: string;
  scanned_by: string;
  rescan: number;
};

type MissAsset = { asset_id: string; name: string; unique_tag: string; location_id?: string | null } | ItemRow | null;

/** Whether a miss of this kind was already written through for this asset (or, unknown, this code). */
export function missSeen(sql: SqlStorage, result: ScanResult, assetId: string | null, code: string): boolean {
  return (
    sql
      .exec(
        `SELECT 1 FROM scans WHERE flush = 1 AND result = ? AND (asset_id = ? OR (? IS NULL AND asset_id IS NULL AND code = ?)) LIMIT 1`,
        result,
        assetId,
        assetId,
        code,
      )
      .toArray().length > 0
  );
}

/** A miss written through (flush = 1): for the report and the asset's history. */
export function insertMiss(
  sql: SqlStorage,
  m: {
    id: string;
    seq: number;
    cmd: ScanCommand;
    result: ScanResult;
    reason: ScanReason;
    asset: MissAsset;
    code: string | null;
    receivedAt: string;
  },
): void {
  const { cmd, asset } = m;
  sql.exec(
    `INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, reason, scanned_at, received_at, scanned_by, expected_location_id,
       wrong_location, condition, comment, photo_keys, flush, dirty)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    m.id,
    cmd.clientScanId,
    asset?.asset_id ?? null,
    m.code,
    asset?.name ?? null,
    asset?.unique_tag ?? null,
    m.result,
    m.reason,
    cmd.scannedAt,
    m.receivedAt,
    cmd.scannedBy,
    asset?.location_id ?? null,
    m.result === "wrong_location" ? 1 : 0,
    cmd.condition,
    cmd.comment,
    JSON.stringify(cmd.photoKeys),
    m.seq,
  );
}

/** A repeat kept only so its clientScanId can be replayed (flush = 0: never sent to D1). */
export function insertUnflushed(
  sql: SqlStorage,
  u: {
    id: string;
    cmd: ScanCommand;
    result: ScanResult;
    reason: ScanReason | null;
    asset: { asset_id: string; name: string; unique_tag: string } | null;
    receivedAt: string;
  },
): void {
  const { cmd, asset } = u;
  sql.exec(
    `INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, reason, scanned_at, received_at, scanned_by, flush, dirty)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
    u.id,
    cmd.clientScanId,
    asset?.asset_id ?? null,
    cmd.code,
    asset?.name ?? null,
    asset?.unique_tag ?? null,
    u.result,
    u.reason,
    cmd.scannedAt,
    u.receivedAt,
    cmd.scannedBy,
  );
}
