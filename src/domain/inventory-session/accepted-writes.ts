/**
 * An accepted scan of a batch writes one scan row and one item update. Within a batch they are
 * deferred and written as one INSERT and one UPDATE over a JSON array (`flush`): one statement per
 * scan and kind was most of a batch's CPU. The batch's item rows (BatchItems) carry the deferred
 * state, so later scans of the batch decide on it; every other statement of the engine reads or
 * writes scans and items directly, so each first flushes what is deferred (rows keep their order,
 * and the transaction holds all of it: nothing is answered before it commits). Outside a batch the
 * same two statements write the one scan at once.
 */
export class AcceptedWrites {
  private scans: unknown[][] = [];
  private items: unknown[][] = [];
  private readonly assets = new Set<string>();

  /** Whether an accepted scan of this asset is waiting (a second one must not join the same UPDATE). */
  has(assetId: string): boolean {
    return this.assets.has(assetId);
  }

  /** Holds one accepted scan: its scans row (INSERT_ACCEPTED's order) and its item update (UPDATE_ACCEPTED's). */
  add(assetId: string, scan: unknown[], item: unknown[]): void {
    this.scans.push(scan);
    this.items.push(item);
    this.assets.add(assetId);
  }

  /** Writes what is held, in order, as one INSERT and one UPDATE. */
  flush(sql: SqlStorage): void {
    if (this.scans.length === 0) return;
    sql.exec(INSERT_ACCEPTED, JSON.stringify(this.scans));
    sql.exec(UPDATE_ACCEPTED, JSON.stringify(this.items));
    this.discard();
  }

  /** Drops what is held (the transaction rolled back). */
  discard(): void {
    this.scans = [];
    this.items = [];
    this.assets.clear();
  }
}

const INSERT_ACCEPTED = `
INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, scanned_at, received_at, scanned_by, expected_location_id,
  wrong_location, marked_anyway, rescan, condition, comment, photo_keys, flush, dirty)
SELECT v ->> 0, v ->> 1, v ->> 2, v ->> 3, v ->> 4, v ->> 5, 'accepted', v ->> 6, v ->> 7, v ->> 8, v ->> 9,
  v ->> 10, v ->> 11, v ->> 12, v ->> 13, v ->> 14, v ->> 15, 1, v ->> 16
FROM (SELECT value AS v FROM json_each(?) ORDER BY key)`;
const UPDATE_ACCEPTED = `
UPDATE items SET scan_id = j.v ->> 0, scanned_at = j.v ->> 1, scanned_by = j.v ->> 2, condition = j.v ->> 3, dirty = j.v ->> 4
FROM (SELECT value AS v FROM json_each(?)) AS j WHERE items.asset_id = j.v ->> 5`;
