/**
 * An inventory session's object state as a workspace move carries it to another shard
 * (docs/deploying.md#moving-a-workspace-between-shards): every row of the object's tables, the
 * scans not yet written through to D1 among them (they keep their marks and are written through
 * by the new object, to the new database), so no accepted scan is lost and none is counted twice.
 */
export interface SessionSnapshot {
  meta: { key: string; value: string }[];
  items: Record<string, unknown>[];
  scans: Record<string, unknown>[];
  scope: string[];
}

export function takeSnapshot(sql: SqlStorage): SessionSnapshot {
  return {
    meta: sql.exec<{ key: string; value: string }>(`SELECT key, value FROM meta WHERE key <> 'moving'`).toArray(),
    items: sql.exec(`SELECT * FROM items`).toArray(),
    scans: sql.exec(`SELECT * FROM scans ORDER BY seq`).toArray(),
    scope: sql
      .exec<{ id: string }>(`SELECT id FROM scope_locations`)
      .toArray()
      .map((r) => r.id),
  };
}

/** Rows as JSON, one statement per table (the storage API caps bound parameters). */
function insertAll(sql: SqlStorage, table: string, rows: Record<string, unknown>[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  sql.exec(
    `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${columns.map((c) => `value ->> '$.${c}'`).join(", ")} FROM json_each(?) WHERE true`,
    JSON.stringify(rows),
  );
}

/** Fills an empty store with a snapshot; its database binding becomes `dbBinding` (the new shard's). */
export function restoreSnapshot(sql: SqlStorage, snap: SessionSnapshot, dbBinding: string): void {
  for (const m of snap.meta) {
    const value = m.key === "session" ? JSON.stringify({ ...JSON.parse(m.value), dbBinding }) : m.value;
    sql.exec(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      m.key,
      value,
    );
  }
  insertAll(sql, "items", snap.items);
  insertAll(sql, "scans", snap.scans);
  sql.exec(
    `INSERT INTO scope_locations (id) SELECT value FROM json_each(?) WHERE true ON CONFLICT (id) DO NOTHING`,
    JSON.stringify(snap.scope),
  );
}
