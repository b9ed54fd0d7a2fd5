import { sql } from "drizzle-orm";
import type { ServiceCtx } from "../../http/service-context";
import type { SessionRow } from "./context";
import { scannerKind, unknownCodeList } from "./unknown-codes";

type Bucket = { id: string; name: string | null; expected: number; scanned: number };

/**
 * The session report, computed from D1 (the object has written everything through before this
 * runs: completion closes it first, reads flush it first). Definitions:
 * - expected: items of the expected set (scope at start + included − excluded); scanned: those
 *   with a standing scan; missing = expected − scanned;
 * - found: assets outside the scope marked anyway (allowMarkAnyway), scanned but not expected;
 * - unexpected: known assets answered `not_in_session`; unknownCodes: codes that matched no asset,
 *   listed (code, scans, who and when) in unknownCodeList, capped (unknown-codes.ts);
 * - wrongLocation: assets answered `wrong_location` or marked anyway;
 * - byScanner: standing accepted scans per scanner (user or API key).
 */
export async function buildReport(
  ctx: ServiceCtx,
  s: Pick<SessionRow, "id" | "status" | "startedAt" | "completedAt" | "cancelledAt">,
) {
  const { db } = ctx;
  const [totals, events, byLocation, byCategory, byScanner, unknownList] = await Promise.all([
    db.get<{ expected: number; scanned: number; found: number; excluded: number }>(sql`SELECT
        coalesce(sum(source <> 'found' AND excluded = 0), 0) AS expected,
        coalesce(sum(source <> 'found' AND excluded = 0 AND scan_id IS NOT NULL), 0) AS scanned,
        coalesce(sum(source = 'found' AND scan_id IS NOT NULL), 0) AS found,
        coalesce(sum(excluded = 1), 0) AS excluded
      FROM session_items WHERE session_id = ${s.id}`),
    db.get<{ unexpected: number; unknown: number; wrong: number; first: string | null; last: string | null }>(sql`SELECT
        count(DISTINCT CASE WHEN result = 'not_in_session' AND asset_id IS NOT NULL THEN asset_id END) AS unexpected,
        count(DISTINCT CASE WHEN result = 'not_in_session' AND asset_id IS NULL THEN code END) AS unknown,
        count(DISTINCT CASE WHEN wrong_location = 1 THEN asset_id END) AS wrong,
        min(CASE WHEN result = 'accepted' THEN scanned_at END) AS first,
        max(CASE WHEN result = 'accepted' THEN scanned_at END) AS last
      FROM scan_events WHERE session_id = ${s.id}`),
    db.all<Bucket>(sql`SELECT i.location_id AS id, l.name AS name, count(*) AS expected, coalesce(sum(i.scan_id IS NOT NULL), 0) AS scanned
      FROM session_items i LEFT JOIN locations l ON l.id = i.location_id
      WHERE i.session_id = ${s.id} AND i.source <> 'found' AND i.excluded = 0 GROUP BY i.location_id ORDER BY lower(l.name), i.location_id`),
    db.all<Bucket>(sql`SELECT i.category_id AS id, c.name AS name, count(*) AS expected, coalesce(sum(i.scan_id IS NOT NULL), 0) AS scanned
      FROM session_items i LEFT JOIN categories c ON c.id = i.category_id
      WHERE i.session_id = ${s.id} AND i.source <> 'found' AND i.excluded = 0 GROUP BY i.category_id ORDER BY lower(c.name), i.category_id`),
    db.all<{
      id: string;
      accepted: number;
      email: string | null;
      userName: string | null;
      keyName: string | null;
    }>(sql`SELECT e.scanned_by AS id, count(*) AS accepted,
        u.email AS email, u.name AS userName, k.name AS keyName
      FROM scan_events e LEFT JOIN users u ON u.id = e.scanned_by LEFT JOIN api_keys k ON k.id = e.scanned_by
      WHERE e.session_id = ${s.id} AND e.result = 'accepted' AND e.unscanned_at IS NULL AND e.superseded_by IS NULL
      GROUP BY e.scanned_by ORDER BY accepted DESC, e.scanned_by`),
    unknownCodeList(db, s.id),
  ]);
  const expected = totals?.expected ?? 0;
  const scanned = totals?.scanned ?? 0;
  const endedAt = s.completedAt ?? s.cancelledAt ?? null;
  const bucket = (b: Bucket) => ({
    id: b.id,
    name: b.name,
    expected: b.expected,
    scanned: b.scanned,
    missing: b.expected - b.scanned,
  });
  return {
    sessionId: s.id,
    status: s.status,
    expected,
    scanned,
    missing: expected - scanned,
    found: totals?.found ?? 0,
    excluded: totals?.excluded ?? 0,
    unexpected: events?.unexpected ?? 0,
    wrongLocation: events?.wrong ?? 0,
    unknownCodes: events?.unknown ?? 0,
    unknownCodeList: unknownList.items,
    unknownCodeListTruncated: unknownList.truncated,
    byLocation: byLocation.map(bucket),
    byCategory: byCategory.map(bucket),
    byScanner: byScanner.map((r) => ({
      scannerId: r.id,
      kind: scannerKind(r.id),
      name: r.userName ?? r.keyName ?? r.email,
      accepted: r.accepted,
    })),
    duration: {
      startedAt: s.startedAt,
      endedAt,
      seconds: s.startedAt
        ? Math.max(0, Math.round((Date.parse(endedAt ?? new Date().toISOString()) - Date.parse(s.startedAt)) / 1000))
        : null,
      firstScanAt: events?.first ?? null,
      lastScanAt: events?.last ?? null,
    },
    generatedAt: new Date().toISOString(),
  };
}

export type SessionReport = Awaited<ReturnType<typeof buildReport>>;
