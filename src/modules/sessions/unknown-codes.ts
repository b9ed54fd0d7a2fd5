import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";

/** The JSON report lists this many codes at most; the CSV export lists every one. */
export const REPORT_UNKNOWN_CODES = 100;

/** Who scanned: a user or an API key (ids carry their type prefix). */
export const scannerKind = (id: string): "apiKey" | "user" => (id.startsWith("key_") ? "apiKey" : "user");

/** A code that matched no asset: its first scan, when and by whom. */
export type UnknownCodeScan = {
  code: string;
  scannedAt: string;
  scannerId: string;
  kind: "apiKey" | "user";
  name: string | null;
};

type Row = {
  code: string;
  scannedAt: string;
  id: string;
  email: string | null;
  userName: string | null;
  keyName: string | null;
};

/**
 * The codes that matched no asset (the report's `unknownCodes` counts them), in code order, up to
 * `limit` codes after `after` (keyset on the code, so the CSV reads them a page at a time). The
 * session object writes through only the first scan of an unknown code (an RFID reader repeats a
 * stray tag many times; repeats are answered, not recorded), so each code has one record: who
 * scanned it first and when. `min()` picks that row's bare columns (SQLite's documented rule).
 */
export async function unknownCodeScans(
  db: TenantDb,
  sessionId: string,
  opts: { after?: string; limit: number },
): Promise<UnknownCodeScan[]> {
  const rows =
    await db.all<Row>(sql`SELECT f.code, f.scannedAt, f.id, u.email AS email, u.name AS userName, k.name AS keyName
    FROM (SELECT code, min(scanned_at) AS scannedAt, scanned_by AS id FROM scan_events
      WHERE session_id = ${sessionId} AND result = 'not_in_session' AND asset_id IS NULL AND code IS NOT NULL
        AND code > ${opts.after ?? ""}
      GROUP BY code ORDER BY code LIMIT ${opts.limit}) f
    LEFT JOIN users u ON u.id = f.id LEFT JOIN api_keys k ON k.id = f.id
    ORDER BY f.code`);
  return rows.map((r) => ({
    code: r.code,
    scannedAt: r.scannedAt,
    scannerId: r.id,
    kind: scannerKind(r.id),
    name: r.userName ?? r.keyName ?? r.email,
  }));
}

/** The report's list: the first `REPORT_UNKNOWN_CODES` codes; `truncated` says when more exist. */
export async function unknownCodeList(db: TenantDb, sessionId: string) {
  const codes = await unknownCodeScans(db, sessionId, { limit: REPORT_UNKNOWN_CODES + 1 });
  return { items: codes.slice(0, REPORT_UNKNOWN_CODES), truncated: codes.length > REPORT_UNKNOWN_CODES };
}
