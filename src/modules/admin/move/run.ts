import { and, eq, sql } from "drizzle-orm";
import { type TenantMoveRecord, tenantMoves, tenants } from "../../../db/control/schema";
import type { SessionSnapshot } from "../../../domain/inventory-session";
import type { Bindings } from "../../../env";
import { nowIso } from "../../../platform/clock";
import { isUniqueViolation } from "../../../platform/d1";
import { rawTenantDb } from "../../../tenancy/pool";
import { controlDb } from "../../../tenancy/registry";
import { wipeDatabase } from "../../../tenancy/retire";
import { sessionObject } from "../../sessions";
import { changesAfter, fenceWrites, startCapture, stopCapture } from "./capture";
import { type MoveTarget, peerShard, reservationSlug } from "./peers";
import { type CopyTable, copyTables, ftsOf, readPage, readRowids } from "./tables";

/** Rows per read and per write call: a few hundred keep each RPC and batch small. */
const PAGE = 200;
/** In-flight reads on the old shard finish before its database is wiped. */
const RETIRE_GRACE_MS = 2_000;
/** Pages copied between two signs of life (the move's `updatedAt`, src/modules/admin/move/resume.ts). */
const PAGES_PER_BEAT = 25;

type Patch = Partial<Omit<TenantMoveRecord, "id">>;
const save = (env: Bindings, id: string, patch: Patch) =>
  controlDb(env)
    .update(tenantMoves)
    .set({ ...patch, updatedAt: nowIso() })
    .where(eq(tenantMoves.id, id))
    .run();

/**
 * A sign of life of a move still `copying` (and progress to show). When the move is no longer
 * `copying`, a shard took it over as stopped (resume.ts): this run ends, and rolls its part back.
 */
async function beat(env: Bindings, id: string, patch: Patch): Promise<void> {
  const res = await controlDb(env)
    .update(tenantMoves)
    .set({ ...patch, updatedAt: nowIso() })
    .where(and(eq(tenantMoves.id, id), eq(tenantMoves.state, "copying")))
    .run();
  if (res.meta.changes !== 1) throw new Error("the move was taken over as stopped");
}

/**
 * Runs a move the source shard accepted (src/modules/admin/move/start.ts), to its end: copy while
 * writes go on, switch while they are refused, retire the old copy. Before the registry row switches
 * any failure rolls back (the old shard stays the workspace's, nothing lost); after it, retiring is
 * repeated until done.
 */
export async function runMove(env: Bindings, move: TenantMoveRecord): Promise<void> {
  const target = peerShard(env, move.toShard);
  const source = rawTenantDb(env, move.fromBinding);
  const frozen: string[] = [];
  let restored: string[] = [];
  let copied = 0;
  try {
    if (!target) throw new Error(`no service binding to shard ${move.toShard}`);
    const { binding } = await target.moveInBegin({ moveId: move.id });
    await beat(env, move.id, { toBinding: binding });
    const tables = await copyTables(source);
    await startCapture(source, tables);
    let pages = 0;
    const progress = async (rows: number) => {
      copied += rows;
      if (++pages % PAGES_PER_BEAT === 0) await beat(env, move.id, { copiedRows: copied });
    };
    for (const table of tables) await copyTable(source, target, binding, table, false, progress);
    await beat(env, move.id, { copiedRows: copied, state: "switching" });

    // The switch: writes are refused from here until the registry names the new shard.
    const fencedAt = Date.now();
    await fenceWrites(source, tables);
    const open = await source
      .prepare(`SELECT id FROM sessions WHERE status = 'active' AND started_at IS NOT NULL ORDER BY id`)
      .all<{ id: string }>();
    const snapshots: { sessionId: string; snapshot: SessionSnapshot }[] = [];
    for (const { id } of open.results) {
      frozen.push(id);
      const snapshot = await sessionObject({ env, tenantId: move.tenantId }, id).freeze();
      if (snapshot) snapshots.push({ sessionId: id, snapshot });
    }
    const changed = await copyChanges(source, target, binding, tables);
    restored = snapshots.map((s) => s.sessionId);
    await target.moveInSessions({ tenantId: move.tenantId, binding, sessions: snapshots });
    const { results: triggers } = await source
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name NOT LIKE '\\_move\\_%' ESCAPE '\\' ORDER BY name`,
      )
      .all<{ name: string; sql: string }>();
    await target.moveInFinish({ binding, triggers });
    await switchRegistry(env, move, binding, {
      changedRows: changed,
      sessions: snapshots.length,
      switchMs: Date.now() - fencedAt,
    });
  } catch (err) {
    await rollback(env, move, target, source, frozen, restored, err, { copiedRows: copied });
    return;
  }
  await retire(env, move, frozen);
}

/**
 * Copies one table in pages by rowid (a keyed table by offset); returns the rows copied. With
 * `replace`, the destination's rows of the table go first (a keyed table copied again whole).
 */
async function copyTable(
  source: D1Database,
  target: MoveTarget,
  binding: string,
  table: CopyTable,
  replace = false,
  onPage: (rows: number) => Promise<void> = async () => {},
): Promise<number> {
  let copied = 0;
  for (let after = 0, first = true; ; first = false) {
    const rows = await readPage(source, table, after, PAGE);
    if (rows.length > 0 || (replace && first)) {
      const n = await target.moveInRows({ binding, table, rows, ...(replace && first ? { rowids: [0] } : {}) });
      copied += n;
      await onPage(n);
    }
    if (rows.length < PAGE) return copied;
    after = table.keyed ? after + rows.length : Number(rows[rows.length - 1]![0]);
  }
}

/** Copies again every row written since the copy began (deleted ones are deleted), with its FTS row. */
async function copyChanges(
  source: D1Database,
  target: MoveTarget,
  binding: string,
  tables: readonly CopyTable[],
): Promise<number> {
  const byName = new Map(tables.map((t) => [t.name, t]));
  let changed = 0;
  for (let after = { tbl: "", rid: 0 }; ; ) {
    const page = await changesAfter(source, after, PAGE);
    const groups = new Map<string, number[]>();
    for (const c of page) groups.set(c.tbl, [...(groups.get(c.tbl) ?? []), c.rid]);
    for (const [name, rowids] of groups) {
      const table = byName.get(name);
      if (!table) continue;
      if (table.keyed) {
        changed += await copyTable(source, target, binding, table, true);
        continue;
      }
      const rows = await readRowids(source, table, rowids);
      await target.moveInRows({ binding, table, rows, rowids });
      const fts = ftsOf(tables, name);
      if (fts) await target.moveInRows({ binding, table: fts, rows: await readRowids(source, fts, rowids), rowids });
      changed += rowids.length;
    }
    if (page.length < PAGE) return changed;
    after = page[page.length - 1]!;
  }
}

/**
 * One control-database batch: the reservation of the new database is dropped and the workspace's
 * row names it (if it still names the old shard and the move is still `switching`, not taken over
 * as stopped by resume.ts), the old database is held by a reservation of its own until wiped, and
 * the move is `retiring`. From here every shard routes the workspace anew. When the row did not
 * switch, the reservation of the old database collides with the workspace's own row (one row per
 * shard and database) and the whole batch is undone: the new database stays reserved for the rollback.
 */
async function switchRegistry(
  env: Bindings,
  move: TenantMoveRecord,
  binding: string,
  figures: Pick<TenantMoveRecord, "changedRows" | "sessions" | "switchMs">,
): Promise<void> {
  const control = controlDb(env);
  const at = nowIso();
  const [, switched] = await control
    .batch([
      control.delete(tenants).where(eq(tenants.slug, reservationSlug(move.id, "to"))),
      control
        .update(tenants)
        .set({ shard: move.toShard, dbBinding: binding, updatedAt: at })
        .where(
          and(
            eq(tenants.id, move.tenantId),
            eq(tenants.shard, move.fromShard),
            sql`EXISTS (SELECT 1 FROM tenant_moves WHERE tenant_moves.id = ${move.id} AND tenant_moves.state = 'switching')`,
          ),
        ),
      control.insert(tenants).values({
        id: `ten_${move.id.slice(4)}`,
        slug: reservationSlug(move.id, "from"),
        plan: "free",
        status: "provisioning",
        shard: move.fromShard,
        dbBinding: move.fromBinding,
        settings: {},
        createdAt: at,
        updatedAt: at,
      }),
      control
        .update(tenantMoves)
        .set({ ...figures, state: "retiring", updatedAt: at })
        .where(eq(tenantMoves.id, move.id)),
    ])
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new Error("the workspace's registry row or the move changed during the switch");
      throw err;
    });
  if (switched.meta.changes !== 1) throw new Error("the workspace's registry row changed during the move");
}

/** Back to where it was: the old shard keeps the workspace, its sessions take scans again, the new copy goes. */
export async function rollback(
  env: Bindings,
  move: TenantMoveRecord,
  target: MoveTarget | undefined,
  source: D1Database,
  frozen: readonly string[],
  restored: readonly string[],
  err: unknown,
  figures: Patch = {},
): Promise<void> {
  console.error(`move ${move.id} failed; rolling back`, String(err));
  const steps: (() => Promise<unknown>)[] = [
    () => stopCapture(source),
    ...frozen.map((id) => () => sessionObject({ env, tenantId: move.tenantId }, id).thaw()),
    () =>
      target?.moveInAbort({ moveId: move.id, tenantId: move.tenantId, binding: null, sessionIds: [...restored] }) ??
      Promise.resolve(),
  ];
  const left: string[] = [];
  for (const step of steps) await step().catch((e: unknown) => left.push(String(e)));
  const message = String(err instanceof Error ? err.message : err).slice(0, 500);
  await save(env, move.id, {
    ...figures,
    state: "failed",
    error: left.length > 0 ? `${message}; rollback incomplete: ${left.join("; ").slice(0, 500)}` : message,
    finishedAt: nowIso(),
  });
}

/** The old copy goes: its database wiped and released, its session objects emptied. Safe to repeat. */
export async function retire(env: Bindings, move: TenantMoveRecord, sessionIds: readonly string[]): Promise<void> {
  await new Promise((r) => setTimeout(r, RETIRE_GRACE_MS));
  try {
    for (const id of sessionIds) await sessionObject({ env, tenantId: move.tenantId }, id).destroy();
    await wipeDatabase(rawTenantDb(env, move.fromBinding));
    const control = controlDb(env);
    const at = nowIso();
    await control.batch([
      control.delete(tenants).where(eq(tenants.slug, reservationSlug(move.id, "from"))),
      control
        .update(tenantMoves)
        .set({ state: "done", finishedAt: at, updatedAt: at })
        .where(eq(tenantMoves.id, move.id)),
    ]);
  } catch (err) {
    console.error(`move ${move.id}: retiring the old copy failed; it is retried`, String(err));
    await save(env, move.id, { error: `retiring: ${String(err).slice(0, 500)}` });
  }
}
