import type { MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "../env";

/**
 * Development-only instrumentation (ENVIRONMENT=development, i.e. `wrangler dev`): every response
 * tells how many D1 statements the request prepared (`x-d1-queries`) and how many D1 calls it
 * made (`x-d1-round-trips`; a db.batch is one), over all databases (the workspace lookup and the
 * credential check included), and the rows SQLite read for them (`x-d1-rows-read`, D1's own
 * `meta.rows_read`: a deterministic measure of a query's work beside the noisy wall clock; calls
 * that return no meta, `raw()` and `first()`, add nothing). Benchmarks read them; production never sets them.
 */
export interface D1Counter {
  statements: number;
  roundTrips: number;
  /** Counted when present (the middleware starts it at 0). */
  rowsRead?: number;
}

type WithMeta = { meta?: { rows_read?: number } };
/** Adds the rows read that a D1 result reports (one result, or a batch's list). */
function countRows<T>(result: Promise<T>, n: D1Counter): Promise<T> {
  if (n.rowsRead === undefined) return result;
  return result.then((r) => {
    for (const one of (Array.isArray(r) ? r : [r]) as WithMeta[]) n.rowsRead! += one?.meta?.rows_read ?? 0;
    return r;
  });
}

const D1_BINDING = /^(CONTROL_DB|TENANT_DB_[A-Z0-9_]+)$/;
const real = new WeakMap<object, D1PreparedStatement>();

function countedStatement(stmt: D1PreparedStatement, n: D1Counter): D1PreparedStatement {
  const wrapped = {
    bind: (...values: unknown[]) => countedStatement(stmt.bind(...values), n),
    first: (col?: string) => {
      n.roundTrips++;
      return col === undefined ? stmt.first() : stmt.first(col);
    },
    all: () => {
      n.roundTrips++;
      return countRows(stmt.all(), n);
    },
    run: () => {
      n.roundTrips++;
      return countRows(stmt.run(), n);
    },
    raw: (opts?: { columnNames?: boolean }) => {
      n.roundTrips++;
      return opts?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw();
    },
  };
  real.set(wrapped, stmt);
  return wrapped as unknown as D1PreparedStatement;
}

/** A D1 binding that counts what goes through it; batches unwrap to the real statements. */
export function countedD1(db: D1Database, n: D1Counter): D1Database {
  const wrapped = {
    prepare: (query: string) => {
      n.statements++;
      return countedStatement(db.prepare(query), n);
    },
    batch: (stmts: D1PreparedStatement[]) => {
      n.roundTrips++;
      return countRows(db.batch(stmts.map((s) => real.get(s) ?? s)), n);
    },
    exec: (query: string) => {
      n.statements++;
      n.roundTrips++;
      return db.exec(query);
    },
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  };
  return wrapped as unknown as D1Database;
}

/** The environment with every D1 binding counted into `n`. */
export function countedEnv(env: Bindings, n: D1Counter): Bindings {
  const cache = new Map<string, D1Database>();
  return new Proxy(env, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== "string" || !D1_BINDING.test(key) || !value) return value;
      if (!cache.has(key)) cache.set(key, countedD1(value as D1Database, n));
      return cache.get(key);
    },
  });
}

export const d1QueryCounter: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.env?.ENVIRONMENT !== "development") return next();
  const n: D1Counter = { statements: 0, roundTrips: 0, rowsRead: 0 };
  c.env = countedEnv(c.env, n);
  await next();
  if (c.res.status === 101) return; // a WebSocket upgrade has no headers to add
  try {
    c.res.headers.set("x-d1-queries", String(n.statements));
    c.res.headers.set("x-d1-round-trips", String(n.roundTrips));
    c.res.headers.set("x-d1-rows-read", String(n.rowsRead ?? 0));
  } catch {
    // A passed-through response (R2 object) has immutable headers: leave it uncounted.
  }
};
