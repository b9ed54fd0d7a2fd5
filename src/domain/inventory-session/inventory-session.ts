import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../../env";
import { rawTenantDb } from "../../tenancy/pool";
import { findItem, ScanEngine } from "./apply-scan";
import { BatchItems } from "./batch-items";
import { FLUSH_ROUND, writeThrough } from "./flush";
import { AssetLookup } from "./lookup";
import { unresolvedKeys } from "./misses";
import { restoreSnapshot, type SessionSnapshot, takeSnapshot } from "./relocate";
import { type SessionMeta, SessionStore, toItemState } from "./session-store";
import type {
  CloseAnswer,
  CodeKey,
  InitInput,
  ItemInfo,
  MembershipAnswer,
  MobilePayload,
  ObjectError,
  Progress,
  ScanBatchAnswer,
  ScanCommand,
  SessionObjectApi,
  UnscanAnswer,
} from "./types";

/** Scans are written through to D1 this long after the first unflushed change (one alarm covers a burst). */
const FLUSH_DELAY_MS = 1_000;
/**
 * A burst still arriving (a change within FLUSH_DELAY_MS, and at least a round of unflushed scans)
 * is written through once it pauses, but never later than this after its first change. The
 * write-through runs on the object's thread too (reading the dirty rows, the JSON, re-scoring the
 * verified assets' health each round), so mid-burst it took turns with the scans: the 500-scan batch
 * route ran at half its speed while it did (bench/README.md). Reads of reports and
 * item lists flush first, so they never see the lag.
 */
const MAX_FLUSH_LAG_MS = 10_000;
/** Rounds per flush call; what remains is left to the next alarm so one call stays bounded. */
const MAX_ROUNDS = 100;
const RECENT_SCANS = 20;

type Closable = "completed" | "cancelled";

/**
 * One inventory session (docs/sessions.md): named `${tenantId}:${sessionId}`, so another tenant's session id
 * reaches an empty object. It holds the expected set and every scan in its SQLite storage and
 * decides scans one at a time (a storage transaction per request), which is what makes 50 phones
 * scanning the same tag yield exactly one `accepted`. An answer is sent only after its write is
 * durable (output gate), so eviction or a crash loses no accepted scan; an alarm writes scans
 * through to the tenant D1.
 */
export class InventorySession extends DurableObject<Bindings> implements SessionObjectApi {
  private readonly store: SessionStore;
  private readonly engine: ScanEngine;
  private readonly lookup = new AssetLookup();
  private alarmSet = false;
  private flushing: Promise<{ ok: boolean }> | null = null;
  private failures = 0;
  /** In memory only (an evicted object simply writes through at its next alarm): the burst's bounds. */
  private firstChangeAt = 0;
  private lastChangeAt = 0;
  /** Set while its workspace's move switches shards (`freeze`); kept in storage, cached here. */
  private moving = false;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.store = new SessionStore(ctx.storage.sql);
    this.engine = new ScanEngine(this.store, ctx.storage.sql);
    void ctx.blockConcurrencyWhile(async () => {
      this.alarmSet = (await ctx.storage.getAlarm()) !== null;
      this.moving = ctx.storage.sql.exec(`SELECT 1 FROM meta WHERE key = 'moving'`).toArray().length > 0;
    });
  }

  /** Loads the session (idempotent: an initialized object keeps its state and answers its progress). */
  async init(input: InitInput): Promise<{ progress: Progress }> {
    if (!this.store.meta()) this.transact(() => this.store.initialize(input));
    return { progress: this.store.progress() };
  }

  /** Applies scans in scannedAt order (ties keep request order); answers in request order. */
  async scan(commands: ScanCommand[], receivedAt: string): Promise<ScanBatchAnswer> {
    const early = this.openMeta();
    if ("error" in early) return early;
    const misses = unresolvedKeys(this.ctx.storage.sql, commands);
    const assets = misses.length
      ? await this.lookup.resolve(rawTenantDb(this.env, early.dbBinding), misses)
      : new Map();
    const meta = this.openMeta(); // the session may have closed while D1 answered
    if ("error" in meta) return meta;
    const order = commands
      .map((_, i) => i)
      .sort((a, b) => commands[a]!.scannedAt.localeCompare(commands[b]!.scannedAt) || a - b);
    const outcomes = new Array(commands.length);
    this.transact(() => {
      const batch = new BatchItems(
        this.ctx.storage.sql,
        commands.map((c) => c.key),
      );
      try {
        for (const i of order) outcomes[i] = this.engine.apply(meta, commands[i]!, assets, receivedAt, batch);
        this.engine.flush();
      } finally {
        this.engine.discard();
      }
    });
    await this.scheduleFlush();
    return { outcomes, progress: this.store.progress() };
  }

  async unscan(key: CodeKey, by: string, at: string): Promise<UnscanAnswer> {
    const meta = this.openMeta();
    if ("error" in meta) return meta;
    const item = findItem(this.store, key);
    if (!item) return { error: "not_in_session" };
    if (!item.scan_id) return { removed: false, item: toItemState(item), progress: this.store.progress() };
    this.transact(() => this.store.unscan(item, by, at));
    await this.scheduleFlush();
    return { removed: true, item: toItemState(this.store.itemById(item.asset_id)!), progress: this.store.progress() };
  }

  /** Adds an asset to the expected set, or puts it back after an exclusion. */
  async include(info: ItemInfo): Promise<MembershipAnswer> {
    return this.setMembership(info, false);
  }

  /** Removes an asset from the expected set (a scan it has stays recorded but no longer counts). */
  async exclude(info: ItemInfo): Promise<MembershipAnswer> {
    return this.setMembership(info, true);
  }

  private async setMembership(info: ItemInfo, excluded: boolean): Promise<MembershipAnswer> {
    const meta = this.openMeta();
    if ("error" in meta) return meta;
    this.transact(() => this.store.setMembership(info, excluded));
    await this.scheduleFlush();
    return { item: toItemState(this.store.itemById(info.assetId)!), progress: this.store.progress() };
  }

  /** Name and due date shown on phones follow the session's edits. */
  async setDetails(details: { name: string; dueAt: string | null }): Promise<ObjectError | { ok: true }> {
    const meta = this.store.meta();
    if (!meta) return { error: "uninitialized" };
    this.store.setMeta({ ...meta, ...details });
    return { ok: true };
  }

  /**
   * Completes or cancels: from here on scans get `closed`; then everything is written through.
   * Idempotent, so a caller whose D1 update failed afterwards can simply call again.
   */
  async close(status: Closable): Promise<CloseAnswer> {
    const meta = this.store.meta();
    if (!meta) return { error: "uninitialized" };
    if (this.moving) return { error: "moving" };
    if (meta.status !== "active" && meta.status !== status) return { error: "closed", status: meta.status };
    if (meta.status !== status) this.store.setMeta({ ...meta, status });
    const flushed = await this.flushAll(Number.MAX_SAFE_INTEGER);
    if (!flushed.ok) return { error: "flush_failed" };
    return { progress: this.store.progress() };
  }

  /** Writes everything pending through to D1 now (reads of reports and item lists call this first). */
  async flush(): Promise<{ ok: boolean }> {
    if (!this.store.meta()) return { ok: true };
    return this.flushAll(MAX_ROUNDS);
  }

  async mobile(): Promise<ObjectError | MobilePayload> {
    const meta = this.store.meta();
    if (!meta) return { error: "uninitialized" };
    const session = {
      id: meta.sessionId,
      name: meta.name,
      status: meta.status,
      dueAt: meta.dueAt,
      location: meta.location,
      includeSubLocations: meta.includeSubLocations,
      categoryId: meta.categoryId,
      startedAt: meta.startedAt,
    };
    return { session, progress: this.store.progress(), recentScans: this.store.recentScans(RECENT_SCANS) };
  }

  /**
   * A workspace move's switch (docs/deploying.md#moving-a-workspace-between-shards): from here every
   * change is refused with `moving` (the API answers 503 with Retry-After) until `thaw`, and the
   * state is handed over whole. Checked in the same synchronous step as each change, so no scan
   * slips in after the snapshot.
   */
  async freeze(): Promise<SessionSnapshot | null> {
    // Set even on an object never loaded: one loaded later on this shard must refuse scans too.
    this.ctx.storage.sql.exec(`INSERT INTO meta (key, value) VALUES ('moving', '1') ON CONFLICT (key) DO NOTHING`);
    this.moving = true;
    return this.store.meta() ? takeSnapshot(this.ctx.storage.sql) : null;
  }

  /** The move was rolled back: changes are taken again, and what waited is written through. */
  async thaw(): Promise<void> {
    this.ctx.storage.sql.exec(`DELETE FROM meta WHERE key = 'moving'`);
    this.moving = false;
    await this.scheduleFlush();
  }

  /** The new shard's copy of a moved session: its state as the old object had it, written through to `dbBinding`. */
  async restore(snapshot: SessionSnapshot, dbBinding: string): Promise<void> {
    await this.destroy();
    this.ctx.storage.transactionSync(() => restoreSnapshot(this.ctx.storage.sql, snapshot, dbBinding));
    this.moving = false;
    await this.scheduleFlush();
  }

  /** Drops the object's storage (the session was deleted). */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.store.reset();
    this.alarmSet = false;
  }

  override async alarm(): Promise<void> {
    this.alarmSet = false;
    if (!this.store.meta()) return;
    const later = Math.min(this.lastChangeAt + FLUSH_DELAY_MS, this.firstChangeAt + MAX_FLUSH_LAG_MS);
    if (this.firstChangeAt && later > Date.now() && this.store.dirtyScansAtLeast(FLUSH_ROUND)) {
      this.alarmSet = true;
      await this.ctx.storage.setAlarm(later);
      return;
    }
    this.firstChangeAt = 0; // changes from here on start the next burst
    const res = await this.flushAll(MAX_ROUNDS);
    if (!res.ok) {
      // Back off (1 s, 2 s, 4 s … 60 s) and keep everything: the rows stay dirty until D1 takes them.
      this.failures++;
      this.alarmSet = true;
      await this.ctx.storage.setAlarm(Date.now() + Math.min(60_000, 1_000 * 2 ** Math.min(this.failures, 6)));
    } else {
      this.failures = 0;
    }
  }

  /** One storage transaction that also persists the change sequence it used (see `SessionStore.nextSeq`). */
  private transact(fn: () => void): void {
    try {
      this.ctx.storage.transactionSync(() => {
        fn();
        this.store.saveSeq();
      });
      this.lastChangeAt = Date.now();
      this.firstChangeAt ||= this.lastChangeAt;
    } catch (err) {
      this.store.forgetSeq();
      throw err;
    }
  }

  private openMeta(): SessionMeta | ObjectError {
    const meta = this.store.meta();
    if (!meta) return { error: "uninitialized" };
    if (meta.status !== "active") return { error: "closed", status: meta.status };
    if (this.moving) return { error: "moving" };
    return meta;
  }

  private async scheduleFlush(): Promise<void> {
    if (this.alarmSet || !this.store.hasDirty()) return;
    this.alarmSet = true;
    await this.ctx.storage.setAlarm(Date.now() + FLUSH_DELAY_MS);
  }

  /** One flush at a time: rounds until nothing is dirty; later callers wait and then flush what arrived meanwhile. */
  private async flushAll(maxRounds: number): Promise<{ ok: boolean }> {
    while (this.flushing) await this.flushing;
    this.flushing = this.runFlush(maxRounds);
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async runFlush(maxRounds: number): Promise<{ ok: boolean }> {
    try {
      if ((await writeThrough(this.env, this.store, this.ctx.storage.sql, maxRounds)) === "more")
        await this.scheduleFlush();
      return { ok: true };
    } catch (err) {
      console.error(`session ${this.store.meta()!.sessionId}: write-through to D1 failed`, String(err));
      return { ok: false };
    }
  }
}
