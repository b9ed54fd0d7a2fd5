/**
 * Stock movements made on the phone go through a queue, like audit scans (docs/field-app.md
 * "Stock on the phone"): each is written to the user's IndexedDB with its Idempotency-Key before
 * it is sent, and leaves only when the server has answered. Offline it waits; back online (or at
 * the next sign-in) the queue is sent in the order made, and the server answers a key it has seen
 * with its first answer, so a movement counts once however often it is sent. A refusal (it would
 * take the quantity below zero, the issue was returned meanwhile) is kept with the server's
 * message and shown until the person dismisses it: nothing is dropped silently.
 */
import { effect, signal } from "@preact/signals";
import { type MovementBody, type MovementKind, move } from "../api/stock";
import { allMoves, currentOwner, deleteMove, putMove, type QueuedMove } from "../platform/offline-db";
import { online } from "./network";

/** This user's queued and refused movements, as the queue holds them. */
export const moves = signal<QueuedMove[]>([]);
/** Told when a queued movement went through (the stock page reloads what it shows). */
let onSent: ((m: QueuedMove) => void) | null = null;
export const whenSent = (listener: ((m: QueuedMove) => void) | null) => {
  onSent = listener;
};

const inflight = new Set<string>();
let seq = 0;
let replaying: Promise<void> | null = null;

export async function refreshMoves(): Promise<void> {
  moves.value = await allMoves().catch(() => [] as QueuedMove[]);
}

/** A 5xx, a lost sign-in, a timeout or a rate limit: try again later. Any other answer is final. */
const isFinal = (status: number) => status < 500 && ![401, 408, 429].includes(status);

export type Sent = { outcome: "done" } | { outcome: "queued" } | { outcome: "refused"; message: string };

/** Sends one movement; a network failure (a throw) or a retryable answer leaves it queued. */
async function send(m: QueuedMove): Promise<Sent> {
  inflight.add(m.key);
  try {
    const res = await move(m.stockItemId, m.kind, m.body as never, m.key, m.by);
    if (res.response.ok) {
      await deleteMove(m.key);
      onSent?.(m);
      return { outcome: "done" };
    }
    if (!isFinal(res.response.status)) return { outcome: "queued" };
    const message = (res.error as { message?: string } | undefined)?.message ?? `HTTP ${res.response.status}`;
    await putMove({ ...m, refused: message });
    return { outcome: "refused", message };
  } catch {
    return { outcome: "queued" };
  } finally {
    inflight.delete(m.key);
    await refreshMoves();
  }
}

/** Queues a movement, then sends it at once when online. */
export async function submitMove<K extends MovementKind>(
  item: { id: string; name: string; tag: string },
  kind: K,
  body: MovementBody[K],
): Promise<Sent> {
  const by = currentOwner()?.userId;
  if (!by) throw new Error("nobody is signed in");
  const m: QueuedMove = {
    key: `web-${crypto.randomUUID()}`,
    by,
    stockItemId: item.id,
    itemName: item.name,
    itemTag: item.tag,
    kind,
    body: body as Record<string, unknown>,
    takenAt: new Date().toISOString(),
    seq: Date.now() * 1000 + (seq++ % 1000),
  };
  await putMove(m);
  await refreshMoves();
  if (!online.value) return { outcome: "queued" };
  return send(m);
}

/** Sends what waits, in order, one at a time; stops at the first that cannot be sent now. */
export function replayMoves(): Promise<void> {
  replaying ??= (async () => {
    try {
      const me = currentOwner()?.userId;
      for (const m of await allMoves()) {
        if (m.refused || inflight.has(m.key) || m.by !== me) continue;
        if ((await send(m)).outcome === "queued") break;
      }
    } catch {
      // Signed out or the stores closed: the rest waits for the next time.
    } finally {
      replaying = null;
      await refreshMoves();
    }
  })();
  return replaying;
}

/** A refusal the person has read: it leaves the queue (the server never took it). */
export async function dismiss(key: string): Promise<void> {
  await deleteMove(key);
  await refreshMoves();
}

// Back online: what waits goes out.
effect(() => {
  if (online.value && currentOwner()) void replayMoves();
});
