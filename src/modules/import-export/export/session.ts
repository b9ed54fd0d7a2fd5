import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../env";
import { ApiError } from "../../../platform/errors";
import { requireSession, type SessionCtx, sessionObject, unknownCodeScans } from "../../sessions";
import type { Cell } from "../csv";
import { namesOf } from "../names";
import { EXPORT_PAGE } from "./assets";

export const SESSION_REPORT_COLUMNS = [
  "assetId",
  "name",
  "uniqueTag",
  "locationId",
  "location",
  "categoryId",
  "category",
  "source",
  "excluded",
  "state",
  "scannedAt",
  "scannedBy",
  "wrongLocation",
  "condition",
  "code",
] as const;

type ItemRow = {
  assetId: string;
  name: string;
  uniqueTag: string;
  locationId: string;
  categoryId: string;
  source: string;
  excluded: number;
  scanId: string | null;
  scannedAt: string | null;
  scannedBy: string | null;
  wrongLocation: number;
  condition: string | null;
};

/** `expected` items are scanned or missing; `found` ones were scanned outside the scope; excluded ones are neither. */
const stateOf = (r: ItemRow) =>
  r.excluded ? "excluded" : r.source === "found" ? "found" : r.scanId ? "scanned" : "missing";

/**
 * A session's report as CSV: one record per item of the session (expected set, manual includes and
 * exclusions, assets found outside the scope), read by the primary key (session_id, asset_id) a
 * page at a time; then one record per code that matched no asset (state `unknown_code`: the
 * code, who scanned it first and when), a page of codes at a time. The JSON report caps that list; the CSV has every one. An active session's object writes its pending scans through first, as the
 * report route does.
 */
export async function sessionReportExport(ctx: SessionCtx, sessionId: string) {
  const row = await requireSession(ctx, sessionId);
  if (row.status === "active") {
    const res = await sessionObject(ctx, sessionId).flush();
    if (!res.ok)
      throw new ApiError("service_unavailable", "The session's latest scans could not be read yet; retry shortly");
  }
  const db: TenantDb = ctx.db;
  const [categories, locations] = await Promise.all([
    namesOf(db, sql`SELECT id, name FROM categories`),
    namesOf(db, sql`SELECT id, name FROM locations`),
  ]);
  async function* pages(): AsyncGenerator<Cell[][]> {
    let after = "";
    for (;;) {
      const rows =
        await db.all<ItemRow>(sql`SELECT asset_id AS assetId, name, unique_tag AS uniqueTag, location_id AS locationId, category_id AS categoryId, source, excluded,
          scan_id AS scanId, scanned_at AS scannedAt, scanned_by AS scannedBy, wrong_location AS wrongLocation, condition
        FROM session_items WHERE session_id = ${sessionId} AND asset_id > ${after} AND NOT (source = 'found' AND scan_id IS NULL) ORDER BY asset_id LIMIT ${EXPORT_PAGE}`);
      if (rows.length === 0) break;
      yield rows.map((r) => [
        r.assetId,
        r.name,
        r.uniqueTag,
        r.locationId,
        locations.get(r.locationId),
        r.categoryId,
        categories.get(r.categoryId),
        r.source,
        Boolean(r.excluded),
        stateOf(r),
        r.scannedAt,
        r.scannedBy,
        Boolean(r.wrongLocation),
        r.condition,
        null,
      ]);
      if (rows.length < EXPORT_PAGE) break;
      after = rows[rows.length - 1]!.assetId;
    }
    yield* unknownCodePages(db, sessionId);
  }
  return { header: [...SESSION_REPORT_COLUMNS], pages: pages(), session: row };
}

const UNKNOWN_CODES_PAGE = 200;

/** The unknown codes' records, in the item records' columns: only state, scan time, scanner and code are set. */
async function* unknownCodePages(db: TenantDb, sessionId: string): AsyncGenerator<Cell[][]> {
  let after = "";
  for (;;) {
    const rows = await unknownCodeScans(db, sessionId, { after, limit: UNKNOWN_CODES_PAGE });
    if (rows.length === 0) return;
    yield rows.map((r) => [...Array<Cell>(9).fill(null), "unknown_code", r.scannedAt, r.scannerId, null, null, r.code]);
    after = rows[rows.length - 1]!.code;
  }
}
