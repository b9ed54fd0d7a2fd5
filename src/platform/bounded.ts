/**
 * `items.map(fn)` with at most `limit` calls in flight, results in input order. Used where one
 * invocation does many slow, independent I/O calls (webhook sends) and must neither run them one by
 * one nor open hundreds of connections at once (Workers allow 6 open connections per invocation;
 * more wait in the runtime's own queue, which still counts against the sender's timeout).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
