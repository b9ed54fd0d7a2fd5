import { CHANGE_LOG, type CopyTable, FENCE_MESSAGE, MOVE_TRIGGER_PREFIX, quoted, runInBatches } from "./tables";

/**
 * The source database's side of a move. While the copy runs, writes go on and triggers note the
 * rowid of every row written (the change log); at the switch, a fence of BEFORE triggers makes
 * every write fail inside its own batch (so no write that started earlier can land after the last
 * copy), and the logged rows are copied again. A rollback drops both; nothing else is touched.
 */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

export async function startCapture(db: D1Database, tables: readonly CopyTable[]): Promise<void> {
  const statements = [
    // No unique key: a trigger's conflict clause yields to the statement that fired it, so a
    // row written twice in one statement must not be able to conflict. Read back DISTINCT.
    db.prepare(`CREATE TABLE IF NOT EXISTS ${CHANGE_LOG} (tbl TEXT NOT NULL, rid INTEGER NOT NULL)`),
    db.prepare(`CREATE INDEX IF NOT EXISTS ${CHANGE_LOG}_idx ON ${CHANGE_LOG} (tbl, rid)`),
  ];
  for (const t of tables.filter((x) => !x.virtual)) {
    const log = (rowid: string) => `INSERT INTO ${CHANGE_LOG} (tbl, rid) VALUES (${literal(t.name)}, ${rowid});`;
    const name = (op: string) => quoted(`${MOVE_TRIGGER_PREFIX}c${op}_${t.name}`);
    // A keyed (WITHOUT ROWID) table is noted as a whole (rid 0): it is copied again whole.
    if (t.keyed) {
      for (const [op, event] of [
        ["i", "INSERT"],
        ["u", "UPDATE"],
        ["d", "DELETE"],
      ] as const)
        statements.push(
          db.prepare(
            `CREATE TRIGGER IF NOT EXISTS ${name(op)} AFTER ${event} ON ${quoted(t.name)} BEGIN ${log("0")} END`,
          ),
        );
      continue;
    }
    statements.push(
      db.prepare(
        `CREATE TRIGGER IF NOT EXISTS ${name("i")} AFTER INSERT ON ${quoted(t.name)} BEGIN ${log("NEW.rowid")} END`,
      ),
      db.prepare(
        `CREATE TRIGGER IF NOT EXISTS ${name("u")} AFTER UPDATE ON ${quoted(t.name)} BEGIN ${log("OLD.rowid")} ${log("NEW.rowid")} END`,
      ),
      db.prepare(
        `CREATE TRIGGER IF NOT EXISTS ${name("d")} AFTER DELETE ON ${quoted(t.name)} BEGIN ${log("OLD.rowid")} END`,
      ),
    );
  }
  await runInBatches(db, statements);
}

/** From here every write to the workspace's tables fails (and its whole batch with it). */
export async function fenceWrites(db: D1Database, tables: readonly CopyTable[]): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (const t of tables.filter((x) => !x.virtual))
    for (const op of ["INSERT", "UPDATE", "DELETE"])
      statements.push(
        db.prepare(
          `CREATE TRIGGER IF NOT EXISTS ${quoted(`${MOVE_TRIGGER_PREFIX}f${op[0]!.toLowerCase()}_${t.name}`)} BEFORE ${op} ON ${quoted(t.name)} BEGIN SELECT RAISE(ABORT, '${FENCE_MESSAGE}'); END`,
        ),
      );
  await runInBatches(db, statements);
}

/** Takes the move's triggers and change log off the source database (a rollback; the fence first). */
export async function stopCapture(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '${MOVE_TRIGGER_PREFIX}%' ORDER BY name DESC`,
    )
    .all<{ name: string }>();
  await runInBatches(db, [
    ...results.map((r) => db.prepare(`DROP TRIGGER IF EXISTS ${quoted(r.name)}`)),
    db.prepare(`DROP TABLE IF EXISTS ${CHANGE_LOG}`),
  ]);
}

/** A page of logged changes after (tbl, rid), in that order. */
export async function changesAfter(
  db: D1Database,
  after: { tbl: string; rid: number },
  limit: number,
): Promise<{ tbl: string; rid: number }[]> {
  const { results } = await db
    .prepare(`SELECT DISTINCT tbl, rid FROM ${CHANGE_LOG} WHERE (tbl, rid) > (?, ?) ORDER BY tbl, rid LIMIT ${limit}`)
    .bind(after.tbl, after.rid)
    .all<{ tbl: string; rid: number }>();
  return results;
}
