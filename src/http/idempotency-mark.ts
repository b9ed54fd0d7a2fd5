import { and, eq, sql } from "drizzle-orm";
import { idempotencyKeys } from "../db/tenant/idempotency";
import type { TenantDb } from "../env";
import { batchGuard } from "../platform/d1-write";

/**
 * The tenant database as the route sees it under an `Idempotency-Key`: every `db.batch` (the
 * route's write) also checks that this request still holds the key's claim and marks it
 * `committed`, in the same transaction. So the work and the record that it happened commit
 * together: a retry after a crash never runs committed work again, and a request whose stale
 * claim was taken over cannot commit. Results are returned without the two added statements.
 */
export function withCommitMark(db: TenantDb, credential: string, key: string, token: string): TenantDb {
  const mine = and(
    eq(idempotencyKeys.credential, credential),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.token, token),
  );
  const batch = async (statements: unknown[]) => {
    const held = batchGuard(db, "idempotency_claim", sql`EXISTS (SELECT 1 FROM ${idempotencyKeys} WHERE ${mine})`);
    // Only running -> committed: a later batch (after-commit work) never rewinds a stored answer.
    const mark = db
      .update(idempotencyKeys)
      .set({ state: "committed" })
      .where(and(mine, eq(idempotencyKeys.state, "running")));
    const all = [held, ...statements, mark] as Parameters<TenantDb["batch"]>[0];
    const results = await db.batch(all);
    return results.slice(1, -1);
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "batch") return batch;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
