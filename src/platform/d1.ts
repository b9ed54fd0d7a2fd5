/** D1 binds at most 100 parameters per statement; leave room for the other parameters of a query. */
export const D1_MAX_PARAMS = 100;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** True for a SQLite unique-constraint failure, which services turn into a 409. */
export function isUniqueViolation(err: unknown, target?: string): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  // SQLite names the column (`tenants.slug`) or, for expression indexes, the index.
  return /UNIQUE constraint failed/i.test(text) && (target === undefined || text.includes(target));
}

/** Awaits a write; a unique-constraint failure becomes `onConflict()` (a 409), anything else propagates. */
export async function onUniqueViolation<T>(write: Promise<T>, onConflict: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw onConflict();
    throw err;
  }
}
