import type { ScanCommand } from "./types";

/**
 * Of `commands`, the lookup keys (`lookupKey`) of those the object cannot answer alone: not a
 * replay of a stored clientScanId, no code, or an item it holds (by id, or by tag: an id also
 * matches a tag). Two statements for a whole batch, where one lookup per scan used to be.
 */
export function unresolvedKeys(sql: SqlStorage, commands: readonly ScanCommand[]): string[] {
  const keyed = commands.filter((c) => c.key.kind !== "none") as (ScanCommand & { key: { value: string } })[];
  if (keyed.length === 0) return [];
  const json = (values: (string | null)[]) => JSON.stringify([...new Set(values.filter((v) => v !== null))]);
  const ids = json(keyed.map((c) => (c.key.kind === "id" ? c.key.value : null)));
  const tags = json(keyed.map((c) => c.key.value.toLowerCase()));
  const held = sql
    .exec<{ asset_id: string; tag_lc: string }>(
      `SELECT asset_id, tag_lc FROM items WHERE asset_id IN (SELECT value FROM json_each(?)) OR tag_lc IN (SELECT value FROM json_each(?))`,
      ids,
      tags,
    )
    .toArray();
  const heldIds = new Set(held.map((r) => r.asset_id));
  const heldTags = new Set(held.map((r) => r.tag_lc));
  const open = keyed.filter(
    (c) => !heldTags.has(c.key.value.toLowerCase()) && !(c.key.kind === "id" && heldIds.has(c.key.value)),
  );
  const replays = open.some((c) => c.clientScanId)
    ? new Set(
        sql
          .exec<{ client_scan_id: string }>(
            `SELECT client_scan_id FROM scans WHERE client_scan_id IN (SELECT value FROM json_each(?))`,
            json(open.map((c) => c.clientScanId)),
          )
          .toArray()
          .map((r) => r.client_scan_id),
      )
    : new Set<string>();
  return open
    .filter((c) => !(c.clientScanId && replays.has(c.clientScanId)))
    .map((c) => `${c.key.kind}:${c.key.kind === "tag" ? c.key.value.toLowerCase() : c.key.value}`);
}
