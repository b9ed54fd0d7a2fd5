import { newId } from "../../platform/ids";
import { AcceptedWrites } from "./accepted-writes";
import type { BatchItems } from "./batch-items";
import { assetRow, itemInfo, itemView } from "./item-view";
import type { AssetInfo } from "./lookup";
import { insertMiss, insertUnflushed, missSeen, type ScanRow } from "./scan-rows";
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

export const lookupKey = (key: CodeKey): string | null =>
  key.kind === "none" ? null : `${key.kind}:${key.kind === "tag" ? key.value.toLowerCase() : key.value}`;

export function findItem(store: SessionStore, key: CodeKey): ItemRow | undefined {
  if (key.kind === "id") return store.itemById(key.value) ?? store.itemByTag(key.value);
  if (key.kind === "tag") return store.itemByTag(key.value);
  return undefined;
}

export class ScanEngine {
  /** The batch being applied (set by `apply`): `accept` defers its writes into it. */
  private batch: BatchItems | undefined;
  private readonly accepted = new AcceptedWrites();

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
    // Held back inside a batch (written with the batch's other accepted scans); written at once
    // outside one, or for a second accepted scan of the same item (its update must follow the first).
    const batch = this.batch;
    const deferred = !!batch && !this.accepted.has(item.asset_id);
    if (!deferred) this.flush();
    this.accepted.add(
      item.asset_id,
      [
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
      ],
      [id, cmd.scannedAt, cmd.scannedBy, cmd.condition, seq, item.asset_id],
    );
    if (deferred) {
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
    batch?.drop(item);
    return outcome;
  }

  /** Writes the deferred accepted scans (see INSERT_ACCEPTED); the batch's last step, and the first of any other statement. */
  flush(): void {
    this.accepted.flush(this.sql);
  }

  /** Drops what was deferred (the transaction rolled back). */
  discard(): void {
    this.accepted.discard();
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
    const id = cmd.clientScanId ? this.storeUnflushed(cmd, "already_scanned", null, item, receivedAt) : null;
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
    const seen = missSeen(this.sql, result, asset?.asset_id ?? null, code ?? "");
    let id: string | null = null;
    if (!seen) {
      id = newId("scan");
      const seq = this.store.nextSeq();
      insertMiss(this.sql, { id, seq, cmd, result, reason, asset, code, receivedAt });
    } else if (cmd.clientScanId) {
      id = this.storeUnflushed(cmd, result, reason, asset, receivedAt);
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

  private storeUnflushed(
    cmd: ScanCommand,
    result: ScanResult,
    reason: ScanReason | null,
    asset: { asset_id: string; name: string; unique_tag: string } | null,
    receivedAt: string,
  ): string {
    this.flush();
    const id = newId("scan");
    insertUnflushed(this.sql, { id, cmd, result, reason, asset, receivedAt });
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
