import type { ItemRow } from "./session-store";
import type { CodeKey } from "./types";

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
    // Every id is a tag too: no tags, nothing to read.
    if (tags.size === 0) return;
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
