import { and, asc, eq, type SQL } from "drizzle-orm";
import { outbox } from "../../src/db/tenant/outbox";
import type { TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

export type OutboxRow = typeof outbox.$inferSelect;

/** The tenant's outbox rows, oldest first, optionally for one subject and/or type. */
export async function outboxRows(
  t: TestTenant,
  where: { subjectId?: string; type?: string } = {},
): Promise<OutboxRow[]> {
  const conds: SQL[] = [];
  if (where.subjectId) conds.push(eq(outbox.subjectId, where.subjectId));
  if (where.type) conds.push(eq(outbox.type, where.type));
  return (await dbOf(t))
    .select()
    .from(outbox)
    .where(and(...conds))
    .orderBy(asc(outbox.id))
    .all();
}

/** Polls until `check` returns a value (not undefined), for effects that run after the response. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
