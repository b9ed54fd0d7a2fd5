import type { BatchItem } from "drizzle-orm/batch";
import type { TenantDb } from "../env";
import type { BatchRider } from "../platform/d1-write";
import { type AuditChange, auditStatementsMany } from "./audit";
import { type NewEvent, recordEventIfChanged, recordEvents } from "./outbox";

/**
 * The write recipe: how every aggregate changes the tenant database. D1 has no interactive
 * transactions, but one `db.batch` is one transaction run in order, so a verb reads, decides, and
 * describes its change as a `Write`; `commitWrite` runs it as ONE batch in a fixed order
 *
 *   guards → writes → audits → events → derived
 *
 * and, only once the batch succeeded, the after-commit work. Because the audit rows and the outbox
 * events sit in the batch of the rows they describe, an event exists if and only if its write
 * happened: a guard that fails leaves neither row, audit nor event.
 *
 * A module with more to say about its aggregate keeps a describer of its own that compiles to a
 * `Write` (the asset recipe adds health marks, status events and the timeline; the stock ledger its
 * quantity statements and crossings). Several describers combine with `joinWrites`.
 *
 * D1's 100 bound parameters: audits and events are each one statement whatever their count
 * (`insertJsonRows`: one JSON parameter); the writes a verb supplies use the d1-write helpers
 * (`insertJsonRows`, `updateJsonRows`, `inJson`) for the same reason.
 */
export interface Write {
  /** Conditions the whole write depends on (`batchGuard`, `batchGuards`); first in the batch. */
  guards?: BatchItem<"sqlite">[];
  /** The row writes themselves. */
  writes?: BatchItem<"sqlite">[];
  /** Audit changes (a row per changed field, see `auditRows`); one statement for all. */
  audits?: AuditChange[];
  /** Outbox events; one statement for all (the actor defaults to the write's). */
  events?: NewEvent[];
  /**
   * Statements that must come last because they read what the batch just wrote: events only the
   * batch can compute (`recordEventsSelected`, `recordEventIfChanged`) and what follows from them
   * (the stock crossings' notifications and flags). `recordEventIfChanged` reads `changes()` of
   * the statement just before it: in a write with audits or events, put that statement here too.
   */
  derived?: BatchItem<"sqlite">[];
  /** After-commit work (health settle, realtime pushes): runs only when the batch succeeded, in order. */
  after?: ((done: Committed) => unknown)[];
}

/** Who writes: a tenant database and the actor recorded on audits and events (`ServiceCtx` is one). */
export interface WriteCtx {
  db: TenantDb;
  actor: string;
}

/** A committed write: the batch's results, and where each part of the recipe starts in them. */
export interface Committed {
  results: unknown[];
  /** Index of the first of the verb's `writes` (after the guards). */
  writesAt: number;
  /** Index of the first `derived` statement. */
  derivedAt: number;
}

/** The statements of `w` in the recipe's order. */
export function writeStatements(ctx: WriteCtx, w: Write): BatchItem<"sqlite">[] {
  return layout(ctx, w).statements;
}

function layout(ctx: WriteCtx, w: Write) {
  const head = [...(w.guards ?? []), ...(w.writes ?? [])];
  const statements = [
    ...head,
    ...auditStatementsMany(ctx.db, w.audits ?? []),
    ...recordEvents(
      ctx.db,
      (w.events ?? []).map((e) => ({ ...e, actor: e.actor ?? ctx.actor })),
    ),
  ];
  const derivedAt = statements.length;
  statements.push(...(w.derived ?? []));
  return { statements, writesAt: w.guards?.length ?? 0, derivedAt };
}

/**
 * Commits `w` as one batch, then runs its after-commit work. A failed batch (a guard that no longer
 * holds, a unique index) goes to `onFailure`, which answers with the right error (often after
 * re-reading); without one the error propagates. Nothing after-commit runs for a failed batch.
 */
export async function commitWrite(
  ctx: WriteCtx,
  w: Write,
  onFailure: (err: unknown) => Promise<never> | never = (err) => {
    throw err;
  },
): Promise<Committed> {
  const { statements, writesAt, derivedAt } = layout(ctx, w);
  if (!statements.length) return { results: [], writesAt, derivedAt };
  let results: unknown[];
  try {
    results = await ctx.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    return onFailure(err);
  }
  const done = { results, writesAt, derivedAt };
  for (const step of w.after ?? []) await step(done);
  return done;
}

/**
 * A write whose event exists only if it changed a row: a conditional UPDATE or DELETE (`WHERE
 * deleted_at IS NULL`, `WHERE status = 'active'`) that a concurrent request may leave matching
 * nothing. `recordEventIfChanged` reads `changes()` of the statement right before it, so the two go
 * together to `derived`, where no audit or event statement comes between them; the statement's
 * result (its `meta.changes`, for the verb's 404 or 409) is `changedRows(done)`. Join it with the
 * rest of the write (`joinWrites`); the statement's actor defaults to the write's.
 */
export function ifChanged(ctx: WriteCtx, write: BatchItem<"sqlite">, event: NewEvent): Write {
  return { derived: [write, recordEventIfChanged(ctx.db, { ...event, actor: event.actor ?? ctx.actor })] };
}

/** Rows changed by the statement at `derivedAt + offset` of a committed write (the first `ifChanged` statement by default). */
export const changedRows = (done: Committed, offset = 0): number =>
  (done.results[done.derivedAt + offset] as { meta: { changes: number } }).meta.changes;

/** One write of several descriptions: each part's guards, writes, audits, events, derived and after, in order. */
export function joinWrites(...parts: (Write | null | undefined)[]): Write {
  const ws = parts.filter((p): p is Write => !!p);
  return {
    guards: ws.flatMap((w) => w.guards ?? []),
    writes: ws.flatMap((w) => w.writes ?? []),
    audits: ws.flatMap((w) => w.audits ?? []),
    events: ws.flatMap((w) => w.events ?? []),
    derived: ws.flatMap((w) => w.derived ?? []),
    after: ws.flatMap((w) => w.after ?? []),
  };
}

/**
 * A write that rides on another verb's batch (a request's approval on the checkout, booking or
 * stock issue it makes): its guards join the verb's, everything else follows the verb's writes.
 * `afterCommit` runs its after-commit work; call it once the verb returned (it does not see the
 * verb's batch results).
 */
export function asRider(ctx: WriteCtx, w: Write): { rider: BatchRider; afterCommit: () => Promise<void> } {
  const { guards, after, ...rest } = w;
  return {
    rider: { guards: guards ?? [], writes: writeStatements(ctx, rest) },
    afterCommit: async () => {
      for (const step of after ?? []) await step({ results: [], writesAt: 0, derivedAt: 0 });
    },
  };
}
