import { chunk, D1_MAX_PARAMS } from "../../platform/d1";
import type { ItemInfo } from "./types";

export interface AssetInfo extends ItemInfo {
  status: string;
}

type Row = { id: string; name: string; unique_tag: string; location_id: string; category_id: string; status: string };

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 5_000;

/**
 * Resolves codes that are not in the session's expected set against the tenant D1 (the miss
 * path: strays, wrong-location finds, unknown codes). Expected items never come here, so the hot
 * path stays inside the object. Answers (including "no such asset") are cached briefly so an RFID
 * reader repeating a stray tag does not hit D1 each time; an asset created meanwhile is seen
 * after at most CACHE_TTL_MS.
 */
export class AssetLookup {
  private cache = new Map<string, { asset: AssetInfo | null; at: number }>();

  /** `keys` are `id:<assetId>` or `tag:<lowercased tag>`; an id key also matches a tag (tags are free text). */
  async resolve(d1: D1Database, keys: string[]): Promise<Map<string, AssetInfo | null>> {
    const now = Date.now();
    const out = new Map<string, AssetInfo | null>();
    const todo: string[] = [];
    for (const key of new Set(keys)) {
      const hit = this.cache.get(key);
      if (hit && now - hit.at < CACHE_TTL_MS) out.set(key, hit.asset);
      else todo.push(key);
    }
    if (todo.length === 0) return out;
    const values = [...new Set(todo.map((k) => k.slice(k.indexOf(":") + 1)))];
    const rows: Row[] = [];
    // Each value is bound twice (id and tag): stay under D1's bound-parameter cap.
    for (const part of chunk(values, Math.floor((D1_MAX_PARAMS - 4) / 2))) {
      const marks = part.map(() => "?").join(", ");
      const res = await d1
        .prepare(`SELECT id, name, unique_tag, location_id, category_id, status FROM assets
                  WHERE deleted_at IS NULL AND (id IN (${marks}) OR lower(unique_tag) IN (${marks}))`)
        .bind(...part, ...part.map((v) => v.toLowerCase()))
        .all<Row>();
      rows.push(...res.results);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byTag = new Map(rows.map((r) => [r.unique_tag.toLowerCase(), r]));
    // A value that is no tag may be one of an asset's other codes (a Code128, a DataMatrix: docs/labels.md).
    const open = values.map((v) => v.toLowerCase()).filter((v) => !byTag.has(v) && !byId.has(v));
    if (open.length) {
      const res = await d1
        .prepare(`SELECT c.value_lc AS code, a.id, a.name, a.unique_tag, a.location_id, a.category_id, a.status
                  FROM codes c JOIN assets a ON a.id = c.holder_id
                  WHERE c.status = 'active' AND c.holder_kind = 'asset' AND a.deleted_at IS NULL
                    AND c.value_lc IN (SELECT value FROM json_each(?))`)
        .bind(JSON.stringify(open))
        .all<Row & { code: string }>();
      for (const r of res.results) byTag.set(r.code, r);
    }
    if (this.cache.size > CACHE_MAX) this.cache.clear();
    for (const key of todo) {
      const [kind, value] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      const row = (kind === "id" ? byId.get(value) : undefined) ?? byTag.get(value.toLowerCase());
      const asset = row
        ? {
            assetId: row.id,
            name: row.name,
            uniqueTag: row.unique_tag,
            locationId: row.location_id,
            categoryId: row.category_id,
            status: row.status,
          }
        : null;
      out.set(key, asset);
      this.cache.set(key, { asset, at: now });
    }
    return out;
  }
}
