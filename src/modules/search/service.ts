import type { ASSET_STATUSES } from "../../db/tenant/assets";
import type { PERSON_STATUSES } from "../../db/tenant/people";
import type { SESSION_STATUSES } from "../../db/tenant/sessions";
import { ftsQuery } from "./query";

/**
 * Quick search over the FTS5 indexes of migrations/tenant/0008_search_fts.sql. One D1 batch (one
 * round trip): exact tag/serial/code matches, then each group ranked by bm25 with per-column weights.
 * The join checks the id as well as the rowid, so an index row that ever went stale (a rowid
 * reused after a write that bypassed the triggers) can never show another row.
 */
interface AssetRow {
  id: string;
  name: string;
  unique_tag: string;
  serial_number: string | null;
  model: string | null;
  status: (typeof ASSET_STATUSES)[number];
}
interface PersonRow {
  id: string;
  name: string;
  email: string | null;
  employee_number: string | null;
  status: (typeof PERSON_STATUSES)[number];
}
interface SessionRow {
  id: string;
  name: string;
  status: (typeof SESSION_STATUSES)[number];
}

/**
 * How many of the most recently added matches bm25 ranks (docs/search.md "Order"). A common word
 * can match a fifth of a workspace; ranking every match made a search cost grow with the workspace
 * (10x from 100,000 to 1,000,000 assets, bench/README.md "One workspace at 1,000,000 assets"), while
 * finding the newest matches is cheap: FTS5 walks the word's doclist in rowid order (rowids follow
 * insertion), and the rowid lower bound is handed to FTS5 with the MATCH, so bm25 runs on at most
 * this many rows. A term with fewer matches is ranked in full, as before.
 */
export const RANK_WINDOW = 1000;

// Weights follow the columns (id is unindexed): a name hit counts most; tags and serials are
// rarer tokens, which bm25's IDF already favours. Ranking and LIMIT happen inside the FTS
// subquery, before the join: joining every match to its row before sorting doubled the query time
// (bench/README.md). Deleted rows are never indexed (the triggers); the deleted_at check is a second guard.
export const ASSETS_SQL = `SELECT a.id, a.name, a.unique_tag, a.serial_number, a.model, a.status
  FROM (SELECT rowid, id, bm25(assets_fts, 0, 10, 5, 5, 2) AS score FROM assets_fts
    WHERE assets_fts MATCH ?1 AND rowid >= (SELECT coalesce(min(rowid), 0) FROM
      (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}))
    ORDER BY score LIMIT ?2) f
  JOIN assets a ON a.rowid = f.rowid AND a.id = f.id
  WHERE a.deleted_at IS NULL ORDER BY f.score`;
// Exact matches use the lower() expression indexes of assets (assets_tag_idx, assets_serial_idx);
// a code of an asset (a Code 128, an EAN: docs/labels.md) names it too, through the codes' unique
// index on value_lc (values are stored folded, as tags compare).
const ASSET_CODE = `SELECT holder_id FROM codes WHERE value_lc = lower(?1) AND status <> 'void' AND holder_kind = 'asset'`;
const EXACT_SQL = `SELECT id, name, unique_tag, serial_number, model, status FROM assets
  WHERE (lower(unique_tag) = lower(?1) OR lower(serial_number) = lower(?1) OR id IN (${ASSET_CODE}))
    AND deleted_at IS NULL
  ORDER BY lower(unique_tag) = lower(?1) DESC, id LIMIT ?2`;
// An exact email or employee number comes first among people (the people_email_idx and
// people_employee_number_idx expression indexes); the rest are ranked as assets are, within the
// RANK_WINDOW newest matches and inside the FTS subquery (people grow with a workspace too: one per
// 50 assets in bench/README.md's million-asset workspace).
// `+deleted_at` keeps people_live_idx (every live person) from driving, here and in PEOPLE_SQL
// (where the ranked window must drive and each person be read by rowid).
export const PEOPLE_EXACT_SQL = `SELECT id, name, email, employee_number, status FROM people
  WHERE (lower(email) = lower(?1) OR lower(employee_number) = lower(?1)) AND +deleted_at IS NULL
  ORDER BY id LIMIT ?2`;
export const PEOPLE_SQL = `SELECT p.id, p.name, p.email, p.employee_number, p.status
  FROM (SELECT rowid, id, bm25(people_fts, 0, 10, 5, 5) AS score FROM people_fts
    WHERE people_fts MATCH ?1 AND rowid >= (SELECT coalesce(min(rowid), 0) FROM
      (SELECT rowid FROM people_fts WHERE people_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${RANK_WINDOW}))
    ORDER BY score LIMIT ?2) f
  JOIN people p ON p.rowid = f.rowid AND p.id = f.id
  WHERE +p.deleted_at IS NULL ORDER BY f.score`;
const SESSIONS_SQL = `SELECT s.id, s.name, s.status
  FROM (SELECT rowid, id, bm25(sessions_fts, 0, 1) AS score FROM sessions_fts WHERE sessions_fts MATCH ?1 ORDER BY score LIMIT ?2) f
  JOIN sessions s ON s.rowid = f.rowid AND s.id = f.id
  ORDER BY f.score`;

// Stock items have no FTS index: a workspace holds few of them (hundreds to thousands),
// so every word must start a word of the name, or `q` must equal the tag, the SKU or one of its codes
// (those come first).
const STOCK_CODE = `SELECT holder_id FROM codes WHERE value_lc = lower(?1) AND status <> 'void' AND holder_kind = 'stockItem'`;
const STOCK_SQL = `SELECT id, name, tag, sku, unit, on_hand,
    (lower(tag) = lower(?1) OR lower(sku) = lower(?1) OR id IN (${STOCK_CODE})) AS exact_match
  FROM stock_items WHERE deleted_at IS NULL AND (lower(tag) = lower(?1) OR lower(sku) = lower(?1)
    OR id IN (${STOCK_CODE}) OR NOT EXISTS (SELECT 1 FROM json_each(?3) w WHERE (' ' || lower(name)) NOT LIKE '% ' || w.value || '%' ESCAPE '\\'))
  ORDER BY exact_match DESC, id LIMIT ?2`;
// Software products (docs/licences.md): as stock, every word starts a word of the name or vendor.
const LICENCE_SQL = `SELECT id, name, vendor FROM licence_products WHERE deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM json_each(?2) w
      WHERE (' ' || lower(name) || ' ' || lower(coalesce(vendor, ''))) NOT LIKE '% ' || w.value || '%' ESCAPE '\\')
  ORDER BY lower(name), id LIMIT ?1`;
interface LicenceRow {
  id: string;
  name: string;
  vendor: string | null;
}
interface StockRow {
  id: string;
  name: string;
  tag: string;
  sku: string | null;
  unit: string;
  on_hand: number;
  exact_match: number;
}
const likeWords = (q: string) =>
  JSON.stringify(
    q
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w.replace(/[\\%_]/g, (c) => `\\${c}`)),
  );
const toStock = (r: StockRow) => ({
  id: r.id,
  name: r.name,
  tag: r.tag,
  sku: r.sku,
  unit: r.unit,
  onHand: r.on_hand,
  exactMatch: r.exact_match === 1,
});

const toAsset = (r: AssetRow, exactMatch: boolean) => ({
  id: r.id,
  name: r.name,
  uniqueTag: r.unique_tag,
  serialNumber: r.serial_number,
  model: r.model,
  status: r.status,
  exactMatch,
});

export async function search(raw: D1Database, input: { q: string; limit: number }) {
  const match = ftsQuery(input.q);
  const exact = raw.prepare(EXACT_SQL).bind(input.q, input.limit);
  const stock = raw.prepare(STOCK_SQL).bind(input.q, input.limit, likeWords(input.q));
  const licences = raw.prepare(LICENCE_SQL).bind(input.limit, likeWords(input.q));
  const licenceProducts = (res: D1Result<unknown> | undefined) =>
    (res!.results as LicenceRow[]).map((r) => ({ id: r.id, name: r.name, vendor: r.vendor }));
  if (!match) {
    const [exactRes, stockRes, licenceRes] = await raw.batch<unknown>([exact, stock, licences]);
    return {
      assets: (exactRes!.results as AssetRow[]).map((r) => toAsset(r, true)),
      people: [],
      sessions: [],
      stockItems: (stockRes!.results as StockRow[]).map(toStock),
      licenceProducts: licenceProducts(licenceRes),
    };
  }
  const [exactRes, assetsRes, exactPeopleRes, peopleRes, sessionsRes, stockRes, licenceRes] = await raw.batch<unknown>([
    exact,
    raw.prepare(ASSETS_SQL).bind(match, input.limit),
    raw.prepare(PEOPLE_EXACT_SQL).bind(input.q, input.limit),
    raw.prepare(PEOPLE_SQL).bind(match, input.limit),
    raw.prepare(SESSIONS_SQL).bind(match, input.limit),
    stock,
    licences,
  ]);
  const exactRows = exactRes!.results as AssetRow[];
  const seen = new Set(exactRows.map((r) => r.id));
  const assets = [
    ...exactRows.map((r) => toAsset(r, true)),
    ...(assetsRes!.results as AssetRow[]).filter((r) => !seen.has(r.id)).map((r) => toAsset(r, false)),
  ].slice(0, input.limit);
  const exactPeople = exactPeopleRes!.results as PersonRow[];
  const seenPeople = new Set(exactPeople.map((r) => r.id));
  const people = [...exactPeople, ...(peopleRes!.results as PersonRow[]).filter((r) => !seenPeople.has(r.id))]
    .slice(0, input.limit)
    .map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      employeeNumber: r.employee_number,
      status: r.status,
    }));
  const sessions = (sessionsRes!.results as SessionRow[]).map((r) => ({ id: r.id, name: r.name, status: r.status }));
  return {
    assets,
    people,
    sessions,
    stockItems: (stockRes!.results as StockRow[]).map(toStock),
    licenceProducts: licenceProducts(licenceRes),
  };
}
