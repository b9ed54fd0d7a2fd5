import { newId } from "../../platform/ids";
import { assetRow, itemInfo, itemView } from "./item-view";
import type { AssetInfo } from "./lookup";
import type { ItemRow, SessionMeta, SessionStore } from "./session-store";
import type { CodeKey, ScanCommand, ScanOutcome, ScanReason, ScanResult } from "./types";

/*
 * The scan rules (docs/sessions.md#scanning), applied synchronously inside one storage transaction so that
 * concurrent and repeated scans are serialized by the object: exactly one `accepted` per item.
 *
 *   replayed clientScanId          → the stored answer again, nothing changes
 *   expected item, excluded        → not_in_session (excluded)
 *   expected item, already scanned → already_scanned, or accepted again with allowRescan (the
 *                                    previous record is superseded)
 *   explicitly included item outside a location-scoped session's scope
 *                                  → wrong_location, or accepted (marked anyway) with allowMarkAnyway
 *   expected item                  → accepted
 *   no asset matches               → not_in_session (unknown_code)
 *   location-scoped session, asset outside the scope (but matching the category scope)
 *                                  → wrong_location, or accepted as a `found` item with allowMarkAnyway
 *   any other asset                → not_in_session (not_expected)
 */

type ScanRow = {
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

export const lookupKey = (key: CodeKey): string | null =>
  key.kind === "none" ? null : `${key.kind}:${key.kind === "tag" ? key.value.toLowerCase() : key.value}`;

export function findItem(store: SessionStore, key: CodeKey): ItemRow | undefined {
  if (key.kind === "id") return store.itemById(key.value) ?? store.itemByTag(key.value);
  if (key.kind === "tag") return store.itemByTag(key.value);
  return undefined;
}

/**
 * The items a batch names, read in one statement at the start of its transaction (one `SELECT` per
 * scan was most of a batch's statements). Keys are `id:<assetId>` and `tag:<lowercased tag>`; a
 * key read and not found holds null. Only valid inside that transaction: every write the engine
 * makes to an item drops the item's keys, so a later scan of it in the same batch reads it again.
 */
export class BatchItems {
  private readonly rows = new Map<string, ItemRow | null>();

  constructor(sql: SqlStorage, keys: readonly CodeKey[]) {
    const ids = new Set<string>();
    const tags = new Set<string>();
    for (const key of keys) {
      if (key.kind === "none") continue;
      if (key.kind === "id") ids.add(key.value);
      // An id that is no item's is looked up as a tag too (findItem).
      tags.add(key.value.toLowerCase());
    }
    if (ids.size === 0 && tags.size === 0) return;
    for (const id of ids) this.rows.set(`id:${id}`, null);
    for (const tag of tags) this.rows.set(`tag:${tag}`, null);
    // In rowid order, so a tag two items share answers the first, as itemByTag's index walk does.
    const found = sql
      .exec<ItemRow>(
        `SELECT * FROM items WHERE asset_id IN (SELECT value FROM json_each(?1)) OR tag_lc IN (SELECT value FROM json_each(?2)) ORDER BY rowid`,
        JSON.stringify([...ids]),
        JSON.stringify([...tags]),
      )
      .toArray();
    for (const row of found) {
      if (ids.has(row.asset_id)) this.rows.set(`id:${row.asset_id}`, row);
      const tag = `tag:${row.unique_tag.toLowerCase()}`;
      if (tags.has(row.unique_tag.toLowerCase()) && this.rows.get(tag) === null) this.rows.set(tag, row);
    }
  }

  /** The row a key was read as: undefined when it was not read (or was dropped), null when no item has it. */
  peek(key: CodeKey): ItemRow | null | undefined {
    if (key.kind === "none") return null;
    if (key.kind === "id") {
      const byId = this.rows.get(`id:${key.value}`);
      return byId === null ? this.rows.get(`tag:${key.value.toLowerCase()}`) : byId;
    }
    return this.rows.get(`tag:${key.value.toLowerCase()}`);
  }

  /** The item's row as a deferred write leaves it (each key that read this item now reads `row`). */
  keep(row: ItemRow): void {
    for (const key of [`id:${row.asset_id}`, `tag:${row.unique_tag.toLowerCase()}`])
      if (this.rows.get(key)?.asset_id === row.asset_id) this.rows.set(key, row);
  }

  /** The item was written (or inserted): its keys are read from the store from now on. */
  drop(item: { asset_id: string; unique_tag: string }): void {
    this.rows.delete(`id:${item.asset_id}`);
    this.rows.delete(`tag:${item.unique_tag.toLowerCase()}`);
  }
}

/*
 * An accepted scan of a batch writes one scan row and one item update. Within a batch they are
 * deferred and written as one INSERT and one UPDATE over a JSON array (`flush`): one statement per
 * scan and kind was most of a batch's CPU. The batch's item rows (BatchItems) carry the deferred
 * state, so later scans of the batch decide on it; every other statement of the engine reads or
 * writes scans and items directly, so each first flushes what is deferred (rows keep their order,
 * and the transaction holds all of it: nothing is answered before it commits).
 */
const INSERT_ACCEPTED = `
INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, scanned_at, received_at, scanned_by, expected_location_id,
  wrong_location, marked_anyway, rescan, condition, comment, photo_keys, flush, dirty)
SELECT v ->> 0, v ->> 1, v ->> 2, v ->> 3, v ->> 4, v ->> 5, 'accepted', v ->> 6, v ->> 7, v ->> 8, v ->> 9,
  v ->> 10, v ->> 11, v ->> 12, v ->> 13, v ->> 14, v ->> 15, 1, v ->> 16
FROM (SELECT value AS v FROM json_each(?) ORDER BY key)`;
const UPDATE_ACCEPTED = `
UPDATE items SET scan_id = j.v ->> 0, scanned_at = j.v ->> 1, scanned_by = j.v ->> 2, condition = j.v ->> 3, dirty = j.v ->> 4
FROM (SELECT value AS v FROM json_each(?)) AS j WHERE items.asset_id = j.v ->> 5`;

export class ScanEngine {
  /** The batch being applied (set by `apply`): `accept` defers its writes into it. */
  private batch: BatchItems | undefined;
  private pendingScans: unknown[][] = [];
  private pendingItems: unknown[][] = [];
  private pendingAssets = new Set<string>();

  constructor(
    private readonly store: SessionStore,
    private readonly sql: SqlStorage,
  ) {}

  /**
   * Decides and records one scan. `assets` holds the D1 lookups done before the transaction;
   * `batch` the items of the batch read at the start of this transaction.
   */
  apply(
    meta: SessionMeta,
    cmd: ScanCommand,
    assets: Map<string, AssetInfo | null>,
    receivedAt: string,
    batch?: BatchItems,
  ): ScanOutcome {
    if (cmd.clientScanId) {
      this.flush();
      const prev = this.sql
        .exec<ScanRow>(`SELECT * FROM scans WHERE client_scan_id = ?`, cmd.clientScanId)
        .toArray()[0];
      if (prev) return this.replay(prev);
    }
    this.batch = batch;
    const item = this.find(cmd.key);
    if (item?.excluded) return this.miss(cmd, "not_in_session", "excluded", item, receivedAt);
    if (item?.scan_id)
      return cmd.allowRescan
        ? this.accept(cmd, item, receivedAt, { rescan: true })
        : this.duplicate(cmd, item, receivedAt);
    // An explicitly included item recorded outside a location-scoped session's scope is expected,
    // yet still at the wrong location: wrong_location unless allowMarkAnyway.
    if (item?.source === "manual" && meta.location && !this.store.inScope(item.location_id)) {
      if (!cmd.allowMarkAnyway) return this.miss(cmd, "wrong_location", "outside_scope", item, receivedAt);
      this.flush();
      this.sql.exec(`UPDATE items SET wrong_location = 1 WHERE asset_id = ?`, item.asset_id);
      batch?.drop(item);
      return this.accept(cmd, { ...item, wrong_location: 1 }, receivedAt, { markedAnyway: true });
    }
    if (item && item.source !== "found") return this.accept(cmd, item, receivedAt, {});

    const key = lookupKey(cmd.key);
    const asset = item ? { ...itemInfo(item), status: "available" } : key ? (assets.get(key) ?? null) : null;
    if (!asset) return this.miss(cmd, "not_in_session", "unknown_code", null, receivedAt);
    this.flush();
    // Another code of an item the object holds (its Code128 after its QR tag): that item, counted once.
    if (!item && this.store.itemById(asset.assetId))
      return this.apply(meta, { ...cmd, key: { kind: "id", value: asset.assetId } }, assets, receivedAt, batch);
    const categoryMatches = !meta.categoryId || meta.categoryId === asset.categoryId;
    if (meta.location && categoryMatches && asset.status !== "retired" && !this.store.inScope(asset.locationId)) {
      if (!cmd.allowMarkAnyway) return this.miss(cmd, "wrong_location", "outside_scope", assetRow(asset), receivedAt);
      const seq = this.store.nextSeq();
      this.sql.exec(
        `INSERT INTO items (asset_id, name, unique_tag, tag_lc, location_id, category_id, source, wrong_location, dirty)
         VALUES (?, ?, ?, ?, ?, ?, 'found', 1, ?) ON CONFLICT (asset_id) DO UPDATE SET wrong_location = 1, dirty = excluded.dirty`,
        asset.assetId,
        asset.name,
        asset.uniqueTag,
        asset.uniqueTag.toLowerCase(),
        asset.locationId,
        asset.categoryId,
        seq,
      );
      batch?.drop(assetRow(asset));
      return this.accept(cmd, this.store.itemById(asset.assetId)!, receivedAt, { markedAnyway: true });
    }
    return this.miss(cmd, "not_in_session", "not_expected", assetRow(asset), receivedAt);
  }

  private accept(
    cmd: ScanCommand,
    item: ItemRow,
    receivedAt: string,
    opts: { rescan?: boolean; markedAnyway?: boolean },
  ): ScanOutcome {
    const id = newId("scan");
    const seq = this.store.nextSeq();
    if (opts.rescan && item.scan_id) {
      this.flush();
      this.sql.exec(`UPDATE scans SET superseded_by = ?, dirty = ? WHERE id = ?`, id, seq, item.scan_id);
    }
    const view = itemView({ ...item, scanned_at: cmd.scannedAt, scanned_by: cmd.scannedBy });
    const outcome: ScanOutcome = {
      result: "accepted",
      reason: null,
      scanId: id,
      clientScanId: cmd.clientScanId,
      replayed: false,
      rescan: !!opts.rescan,
      item: view,
    };
    const batch = this.batch;
    if (batch && !this.pendingAssets.has(item.asset_id)) {
      this.pendingScans.push([
        id,
        cmd.clientScanId,
        item.asset_id,
        cmd.code,
        item.name,
        item.unique_tag,
        cmd.scannedAt,
        receivedAt,
        cmd.scannedBy,
        item.location_id,
        item.wrong_location,
        opts.markedAnyway ? 1 : 0,
        opts.rescan ? 1 : 0,
        cmd.condition,
        cmd.comment,
        JSON.stringify(cmd.photoKeys),
        seq,
      ]);
      this.pendingItems.push([id, cmd.scannedAt, cmd.scannedBy, cmd.condition, seq, item.asset_id]);
      this.pendingAssets.add(item.asset_id);
      batch.keep({
        ...item,
        scan_id: id,
        scanned_at: cmd.scannedAt,
        scanned_by: cmd.scannedBy,
        condition: cmd.condition,
      });
      return outcome;
    }
    this.flush();
    this.sql.exec(
      `INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, scanned_at, received_at, scanned_by, expected_location_id,
         wrong_location, marked_anyway, rescan, condition, comment, photo_keys, flush, dirty)
       VALUES (?, ?, ?, ?, ?, ?, 'accepted', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
      id,
      cmd.clientScanId,
      item.asset_id,
      cmd.code,
      item.name,
      item.unique_tag,
      cmd.scannedAt,
      receivedAt,
      cmd.scannedBy,
      item.location_id,
      item.wrong_location,
      opts.markedAnyway ? 1 : 0,
      opts.rescan ? 1 : 0,
      cmd.condition,
      cmd.comment,
      JSON.stringify(cmd.photoKeys),
      seq,
    );
    this.sql.exec(
      `UPDATE items SET scan_id = ?, scanned_at = ?, scanned_by = ?, condition = ?, dirty = ? WHERE asset_id = ?`,
      id,
      cmd.scannedAt,
      cmd.scannedBy,
      cmd.condition,
      seq,
      item.asset_id,
    );
    this.batch?.drop(item);
    return outcome;
  }

  /** Writes the deferred accepted scans (see INSERT_ACCEPTED); the batch's last step, and the first of any other statement. */
  flush(): void {
    if (this.pendingScans.length === 0) return;
    this.sql.exec(INSERT_ACCEPTED, JSON.stringify(this.pendingScans));
    this.sql.exec(UPDATE_ACCEPTED, JSON.stringify(this.pendingItems));
    this.pendingScans = [];
    this.pendingItems = [];
    this.pendingAssets.clear();
  }

  /** Drops what was deferred (the transaction rolled back). */
  discard(): void {
    this.pendingScans = [];
    this.pendingItems = [];
    this.pendingAssets.clear();
    this.batch = undefined;
  }

  private find(key: CodeKey): ItemRow | undefined {
    const known = this.batch?.peek(key);
    if (known !== undefined) return known ?? undefined;
    this.flush();
    return findItem(this.store, key);
  }

  /** Already scanned: answered, and stored only when a clientScanId needs a replayable answer. */
  private duplicate(cmd: ScanCommand, item: ItemRow, receivedAt: string): ScanOutcome {
    const id = cmd.clientScanId ? this.insertUnflushed(cmd, "already_scanned", null, item, receivedAt) : null;
    return {
      result: "already_scanned",
      reason: null,
      scanId: id,
      clientScanId: cmd.clientScanId,
      replayed: false,
      rescan: false,
      item: itemView(item),
    };
  }

  /**
   * not_in_session / wrong_location: the first one per asset (or unknown code) is written through
   * for the report and the asset's history; repeats (an RFID reader sees a stray tag many times)
   * are only answered, or stored unflushed when they carry a clientScanId.
   */
  private miss(
    cmd: ScanCommand,
    result: ScanResult,
    reason: ScanReason,
    asset: ReturnType<typeof assetRow> | ItemRow | null,
    receivedAt: string,
  ): ScanOutcome {
    this.flush();
    // Unknown identifiers are grouped by what was sent (the code, or the itemId).
    const code = asset ? cmd.code : (cmd.code ?? (cmd.key.kind === "none" ? null : cmd.key.value));
    const seen =
      this.sql
        .exec(
          `SELECT 1 FROM scans WHERE flush = 1 AND result = ? AND (asset_id = ? OR (? IS NULL AND asset_id IS NULL AND code = ?)) LIMIT 1`,
          result,
          asset?.asset_id ?? null,
          asset?.asset_id ?? null,
          code ?? "",
        )
        .toArray().length > 0;
    let id: string | null = null;
    if (!seen) {
      id = newId("scan");
      const seq = this.store.nextSeq();
      this.sql.exec(
        `INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, reason, scanned_at, received_at, scanned_by, expected_location_id,
           wrong_location, condition, comment, photo_keys, flush, dirty)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
        id,
        cmd.clientScanId,
        asset?.asset_id ?? null,
        code,
        asset?.name ?? null,
        asset?.unique_tag ?? null,
        result,
        reason,
        cmd.scannedAt,
        receivedAt,
        cmd.scannedBy,
        asset?.location_id ?? null,
        result === "wrong_location" ? 1 : 0,
        cmd.condition,
        cmd.comment,
        JSON.stringify(cmd.photoKeys),
        seq,
      );
    } else if (cmd.clientScanId) {
      id = this.insertUnflushed(cmd, result, reason, asset, receivedAt);
    }
    return {
      result,
      reason,
      scanId: id,
      clientScanId: cmd.clientScanId,
      replayed: false,
      rescan: false,
      item: asset ? itemView(asset) : null,
    };
  }

  private insertUnflushed(
    cmd: ScanCommand,
    result: ScanResult,
    reason: ScanReason | null,
    asset: { asset_id: string; name: string; unique_tag: string } | null,
    receivedAt: string,
  ): string {
    this.flush();
    const id = newId("scan");
    this.sql.exec(
      `INSERT INTO scans (id, client_scan_id, asset_id, code, item_name, item_tag, result, reason, scanned_at, received_at, scanned_by, flush, dirty)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
      id,
      cmd.clientScanId,
      asset?.asset_id ?? null,
      cmd.code,
      asset?.name ?? null,
      asset?.unique_tag ?? null,
      result,
      reason,
      cmd.scannedAt,
      receivedAt,
      cmd.scannedBy,
    );
    return id;
  }

  private replay(prev: ScanRow): ScanOutcome {
    this.flush();
    const item = prev.asset_id ? this.store.itemById(prev.asset_id) : undefined;
    return {
      result: prev.result,
      reason: prev.reason,
      scanId: prev.id,
      clientScanId: prev.client_scan_id,
      replayed: true,
      rescan: prev.rescan === 1,
      item: item ? itemView(item) : null,
    };
  }
}
