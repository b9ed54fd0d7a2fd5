import type { InitInput, ItemInfo, ItemState, RecentScan } from "./types";

/*
 * The object's own SQLite: session metadata, the expected set with scan state, and every stored
 * scan. `dirty` holds the change sequence number of a row's last change (0 = written through to
 * D1), so a flush can clear exactly what it wrote even when scans land while it awaits D1.
 */
const DDL = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS items (
    asset_id TEXT PRIMARY KEY, name TEXT NOT NULL, unique_tag TEXT NOT NULL, tag_lc TEXT NOT NULL,
    location_id TEXT NOT NULL, category_id TEXT NOT NULL, source TEXT NOT NULL,
    excluded INTEGER NOT NULL DEFAULT 0, wrong_location INTEGER NOT NULL DEFAULT 0,
    scan_id TEXT, scanned_at TEXT, scanned_by TEXT, condition TEXT, dirty INTEGER NOT NULL DEFAULT 0)`,
  `CREATE INDEX IF NOT EXISTS items_tag ON items (tag_lc)`,
  `CREATE INDEX IF NOT EXISTS items_dirty ON items (dirty) WHERE dirty > 0`,
  `CREATE TABLE IF NOT EXISTS scans (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, client_scan_id TEXT UNIQUE,
    asset_id TEXT, code TEXT, item_name TEXT, item_tag TEXT, result TEXT NOT NULL, reason TEXT,
    scanned_at TEXT NOT NULL, received_at TEXT NOT NULL, scanned_by TEXT NOT NULL,
    expected_location_id TEXT, wrong_location INTEGER NOT NULL DEFAULT 0, marked_anyway INTEGER NOT NULL DEFAULT 0,
    rescan INTEGER NOT NULL DEFAULT 0, condition TEXT, comment TEXT, photo_keys TEXT NOT NULL DEFAULT '[]',
    unscanned_at TEXT, unscanned_by TEXT, superseded_by TEXT,
    flush INTEGER NOT NULL, dirty INTEGER NOT NULL DEFAULT 0)`,
  `CREATE INDEX IF NOT EXISTS scans_dirty ON scans (dirty) WHERE dirty > 0`,
  `CREATE INDEX IF NOT EXISTS scans_miss ON scans (asset_id, code) WHERE flush = 1 AND result <> 'accepted'`,
  `CREATE TABLE IF NOT EXISTS scope_locations (id TEXT PRIMARY KEY)`,
  // Progress counts kept by triggers in the same transaction as each item change: reading them is
  // one row (no scan of thousands of items per scan), and they cannot drift (rollback, eviction).
  `CREATE TABLE IF NOT EXISTS counts (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL, scanned INTEGER NOT NULL, found INTEGER NOT NULL)`,
  `INSERT OR IGNORE INTO counts (id, total, scanned, found) VALUES (1, 0, 0, 0)`,
  trigger("items_counts_insert", "INSERT", [], ["NEW"]),
  trigger("items_counts_update", "UPDATE", ["OLD"], ["NEW"]),
  trigger("items_counts_delete", "DELETE", ["OLD"], []),
];

/** A trigger adding the NEW row's contribution to the counts and taking away the OLD row's. */
function trigger(name: string, event: string, minus: string[], plus: string[]): string {
  const term = (expr: (r: string) => string) =>
    [...plus.map((r) => `+ (${expr(r)})`), ...minus.map((r) => `- (${expr(r)})`)].join(" ");
  const expected = (r: string) => `${r}.source <> 'found' AND ${r}.excluded = 0`;
  return `CREATE TRIGGER IF NOT EXISTS ${name} AFTER ${event} ON items BEGIN
    UPDATE counts SET total = total ${term(expected)},
      scanned = scanned ${term((r) => `${expected(r)} AND ${r}.scan_id IS NOT NULL`)},
      found = found ${term((r) => `${r}.source = 'found' AND ${r}.scan_id IS NOT NULL`)}
    WHERE id = 1;
  END`;
}

/** The session as the object keeps it: what it was started with, less the scope lists and items. */
export type SessionMeta = Omit<InitInput, "scopeLocationIds" | "items">;

export type ItemRow = {
  asset_id: string;
  name: string;
  unique_tag: string;
  location_id: string;
  category_id: string;
  source: string;
  excluded: number;
  wrong_location: number;
  scan_id: string | null;
  scanned_at: string | null;
  scanned_by: string | null;
  condition: string | null;
};

export function toItemState(r: ItemRow): ItemState {
  return {
    assetId: r.asset_id,
    name: r.name,
    uniqueTag: r.unique_tag,
    locationId: r.location_id,
    categoryId: r.category_id,
    source: r.source as ItemState["source"],
    excluded: r.excluded === 1,
    wrongLocation: r.wrong_location === 1,
    scanId: r.scan_id,
    scannedAt: r.scanned_at,
    scannedBy: r.scanned_by,
    condition: r.condition,
  };
}

/** Typed access to the object's tables; every method is synchronous (SQLite in the object). */
export class SessionStore {
  private metaCache: SessionMeta | null = null;
  private seqCache: number | null = null;
  private seqPending = false;

  constructor(private readonly sql: SqlStorage) {
    this.createTables();
  }

  private createTables(): void {
    for (const statement of DDL) this.sql.exec(statement);
  }

  meta(): SessionMeta | null {
    if (this.metaCache) return this.metaCache;
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'session'`).toArray()[0];
    this.metaCache = row ? (JSON.parse(row.value) as SessionMeta) : null;
    return this.metaCache;
  }

  setMeta(meta: SessionMeta): void {
    this.sql.exec(
      `INSERT INTO meta (key, value) VALUES ('session', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      JSON.stringify(meta),
    );
    this.metaCache = meta;
  }

  /** The last change sequence number handed out. */
  currentSeq(): number {
    if (this.seqCache === null) {
      const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = 'seq'`).toArray()[0];
      this.seqCache = row ? Number(row.value) : 0;
    }
    return this.seqCache;
  }

  /**
   * The next change sequence number. It is persisted once per transaction, by `saveSeq` at its end
   * (a 500-scan batch used to rewrite the meta row 500 times), so it commits or rolls back with the
   * changes it marks; `forgetSeq` drops the cached value after a rollback.
   */
  nextSeq(): number {
    this.seqCache = this.currentSeq() + 1;
    this.seqPending = true;
    return this.seqCache;
  }

  saveSeq(): void {
    if (!this.seqPending) return;
    this.sql.exec(
      `INSERT INTO meta (key, value) VALUES ('seq', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      String(this.seqCache),
    );
    this.seqPending = false;
  }

  forgetSeq(): void {
    this.seqCache = null;
    this.seqPending = false;
  }

  /** Loads the session; the item list goes in as one JSON parameter (the storage API caps bound parameters). */
  initialize(input: InitInput): void {
    this.setMeta({
      tenantId: input.tenantId,
      sessionId: input.sessionId,
      dbBinding: input.dbBinding,
      name: input.name,
      status: input.status,
      dueAt: input.dueAt,
      location: input.location,
      includeSubLocations: input.includeSubLocations,
      categoryId: input.categoryId,
      startedAt: input.startedAt,
    });
    this.sql.exec(
      `INSERT INTO scope_locations (id) SELECT value FROM json_each(?) WHERE true ON CONFLICT (id) DO NOTHING`,
      JSON.stringify(input.scopeLocationIds),
    );
    this.sql.exec(
      `INSERT INTO items (asset_id, name, unique_tag, tag_lc, location_id, category_id, source, excluded, wrong_location, scan_id, scanned_at, scanned_by, condition, dirty)
       SELECT j.value ->> '$.assetId', j.value ->> '$.name', j.value ->> '$.uniqueTag', lower(j.value ->> '$.uniqueTag'),
              j.value ->> '$.locationId', j.value ->> '$.categoryId', j.value ->> '$.source',
              j.value ->> '$.excluded', j.value ->> '$.wrongLocation', j.value ->> '$.scanId', j.value ->> '$.scannedAt',
              j.value ->> '$.scannedBy', j.value ->> '$.condition', 0
       FROM json_each(?) j WHERE true ON CONFLICT (asset_id) DO NOTHING`,
      JSON.stringify(
        input.items.map((i) => ({ ...i, excluded: i.excluded ? 1 : 0, wrongLocation: i.wrongLocation ? 1 : 0 })),
      ),
    );
  }

  inScope(locationId: string): boolean {
    return this.sql.exec(`SELECT 1 FROM scope_locations WHERE id = ?`, locationId).toArray().length > 0;
  }

  itemById(assetId: string): ItemRow | undefined {
    return this.sql.exec<ItemRow>(`SELECT * FROM items WHERE asset_id = ?`, assetId).toArray()[0];
  }

  itemByTag(tag: string): ItemRow | undefined {
    return this.sql.exec<ItemRow>(`SELECT * FROM items WHERE tag_lc = ? LIMIT 1`, tag.toLowerCase()).toArray()[0];
  }

  progress() {
    const row = this.sql
      .exec<{ total: number; scanned: number; found: number }>(`SELECT total, scanned, found FROM counts WHERE id = 1`)
      .one();
    return { scanned: row.scanned, total: row.total, missing: row.total - row.scanned, found: row.found };
  }

  /** Removes an item's standing scan (the scan record is kept, marked unscanned). */
  unscan(item: ItemRow, by: string, at: string): void {
    const seq = this.nextSeq();
    this.sql.exec(
      `UPDATE scans SET unscanned_at = ?, unscanned_by = ?, dirty = ? WHERE id = ?`,
      at,
      by,
      seq,
      item.scan_id,
    );
    this.sql.exec(
      `UPDATE items SET scan_id = NULL, scanned_at = NULL, scanned_by = NULL, condition = NULL, dirty = ? WHERE asset_id = ?`,
      seq,
      item.asset_id,
    );
  }

  /** Puts an asset into the expected set or takes it out (a `found` item included becomes `manual`). */
  setMembership(info: ItemInfo, excluded: boolean): void {
    this.sql.exec(
      `INSERT INTO items (asset_id, name, unique_tag, tag_lc, location_id, category_id, source, excluded, dirty) VALUES (?, ?, ?, ?, ?, ?, 'manual', ?, ?)
       ON CONFLICT (asset_id) DO UPDATE SET excluded = excluded.excluded, dirty = excluded.dirty,
         source = CASE WHEN items.source = 'found' AND excluded.excluded = 0 THEN 'manual' ELSE items.source END`,
      info.assetId,
      info.name,
      info.uniqueTag,
      info.uniqueTag.toLowerCase(),
      info.locationId,
      info.categoryId,
      excluded ? 1 : 0,
      this.nextSeq(),
    );
  }

  /** The latest stored scans, newest first; duplicates (already_scanned) are left out. */
  recentScans(limit: number): RecentScan[] {
    type Row = {
      id: string;
      asset_id: string | null;
      item_name: string | null;
      item_tag: string | null;
      code: string | null;
      result: RecentScan["result"];
      reason: RecentScan["reason"];
      scanned_at: string;
      scanned_by: string;
      unscanned_at: string | null;
    };
    return this.sql
      .exec<Row>(
        `SELECT id, asset_id, item_name, item_tag, code, result, reason, scanned_at, scanned_by, unscanned_at FROM scans WHERE result <> 'already_scanned' ORDER BY seq DESC LIMIT ?`,
        limit,
      )
      .toArray()
      .map((r) => ({
        scanId: r.id,
        itemId: r.asset_id,
        name: r.item_name,
        uniqueTag: r.item_tag,
        code: r.code,
        result: r.result,
        reason: r.reason,
        scannedAt: r.scanned_at,
        scannedBy: r.scanned_by,
        unscanned: r.unscanned_at !== null,
      }));
  }

  /** Whether at least `n` scans wait for the write-through (reads at most `n` entries of the partial index). */
  dirtyScansAtLeast(n: number): boolean {
    return (
      this.sql.exec<{ c: number }>(`SELECT count(*) AS c FROM (SELECT 1 FROM scans WHERE dirty > 0 LIMIT ?)`, n).one()
        .c >= n
    );
  }

  hasDirty(): boolean {
    return (
      this.sql.exec(`SELECT 1 FROM scans WHERE dirty > 0 LIMIT 1`).toArray().length > 0 ||
      this.sql.exec(`SELECT 1 FROM items WHERE dirty > 0 LIMIT 1`).toArray().length > 0
    );
  }

  /** After `deleteAll()` (which drops the tables too): an empty, uninitialized store again. */
  reset(): void {
    this.metaCache = null;
    this.seqCache = null;
    this.createTables();
  }
}
