/**
 * Host → shard, remembered per isolate for a short time so that most requests cost the router no
 * registry read. A move is seen at the latest when the entry expires; before that, the old shard
 * answers "moved" (src/tenancy/shard.ts) and the router forgets the entry at once.
 */
export class RouteCache {
  private readonly entries = new Map<string, { shard: string | null; until: number }>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): string | null | undefined {
    const e = this.entries.get(key);
    if (!e || e.until <= now) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return e.shard;
  }

  set(key: string, shard: string | null, now = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(key);
    this.entries.set(key, { shard, until: now + this.ttlMs });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
