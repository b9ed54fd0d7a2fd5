/**
 * The offline queue (docs/field-app.md: offline is a queue, not a cache of truth). Every audit scan is
 * written to IndexedDB with its `scanId` before it is sent, and leaves the queue only when the
 * server has answered it. Back online, what is left goes through POST /sessions/{id}/scan/batch
 * (500 at a time); the server answers a repeated scanId with its first answer, so a scan that was
 * sent twice (a lost response, a reload mid-replay) still counts once. Where the server's answer
 * differs from what the offline copy predicted, the screen lists it: the server's answer wins.
 * The queue is the signed-in user's own (platform/offline-db.ts), and each scan carries who took
 * it (`by`): it is sent only under that user's token, so a shared phone never sends one person's
 * scans as another's. What a user left queued at sign-out is sent when they sign in again.
 */
import { signal } from "@preact/signals";
import { type BatchResult, type Progress, type ScanRequest, scanBatch } from "../api/sessions";
import {
  currentOwner,
  dequeue,
  enqueue,
  type QueuedScan,
  queued,
  queuedIds,
  queuedSessions,
} from "../platform/offline-db";

export type Differing = {
  scanId: string;
  code: string;
  guess: QueuedScan["guess"];
  result: string;
  name: string | null;
};

export const pending = signal(0);
export const differing = signal<Differing[]>([]);
export const replayError = signal("");

/** Scans being sent one by one right now: a replay leaves them to that request. */
const inflight = new Set<string>();
let seq = 0;
/** One replay per session at a time. */
const replaying = new Map<string, Promise<void>>();

export const scanRequest = (s: QueuedScan): ScanRequest => ({
  code: s.code,
  scanId: s.scanId,
  scannedAt: s.scannedAt,
  ...(s.allowMarkAnyway ? { allowMarkAnyway: true } : {}),
});

/**
 * Counted from the queue itself after every change (never kept by hand: changes overlap), less
 * the scans being sent one by one right now.
 */
export async function countPending(sessionId: string): Promise<void> {
  pending.value = (await queuedIds(sessionId)).filter((id) => !inflight.has(id)).length;
}

/** Writes a scan to the queue; it stays there until `settle` (an answer) removes it. */
/** `online`: the scan is about to be sent on its own (it counts as pending only if that fails). */
export async function take(
  sessionId: string,
  code: string,
  guess: QueuedScan["guess"],
  online: boolean,
  allowMarkAnyway = false,
): Promise<QueuedScan> {
  const by = currentOwner()?.userId;
  if (!by) throw new Error("nobody is signed in");
  const scan: QueuedScan = {
    scanId: `web-${crypto.randomUUID()}`,
    by,
    sessionId,
    code,
    scannedAt: new Date().toISOString(),
    guess,
    seq: Date.now() * 1000 + (seq++ % 1000),
    ...(allowMarkAnyway ? { allowMarkAnyway } : {}),
  };
  if (online) inflight.add(scan.scanId);
  await enqueue(scan);
  await countPending(sessionId);
  return scan;
}

/** The single send is over: answered (`settled`) or left in the queue for the replay. */
export async function sent(scan: QueuedScan, settled: boolean): Promise<void> {
  if (settled) await dequeue([scan.scanId]);
  inflight.delete(scan.scanId);
  await countPending(scan.sessionId);
}

export type Answer = BatchResult["results"][number] & { sentScanId: string };

/**
 * Sends what the queue holds for a session; one replay at a time. Stops quietly when offline.
 * `onAnswers`: the server's answers (with the scanId each was sent with) and the progress after.
 */
export function replay(sessionId: string, onAnswers: (answers: Answer[], p: Progress) => void): Promise<void> {
  const running = replaying.get(sessionId);
  if (running) return running;
  const run = (async () => {
    try {
      for (;;) {
        const all = (await queued(sessionId)).filter((s) => !inflight.has(s.scanId));
        // One taker per batch (the queue is one user's; `by` is checked again at the send).
        const by = all[0]?.by;
        const batch = all.filter((s) => s.by === by).slice(0, 500);
        if (!by || !batch.length) break;
        const { data, error, response } = await scanBatch(sessionId, batch.map(scanRequest), by);
        if (!data) {
          // Kept in the queue (nothing is dropped): a closed session or a refusal is shown.
          replayError.value = (error as { message?: string } | undefined)?.message ?? `HTTP ${response.status}`;
          break;
        }
        replayError.value = "";
        const diffs: Differing[] = [];
        for (const r of data.results) {
          const sent = batch[r.index];
          if (sent && r.result !== sent.guess)
            diffs.push({
              scanId: sent.scanId,
              code: sent.code,
              guess: sent.guess,
              result: r.result,
              name: r.item?.name ?? null,
            });
        }
        if (diffs.length) differing.value = [...diffs, ...differing.value];
        await dequeue(batch.map((s) => s.scanId));
        onAnswers(
          data.results.map((r) => ({ ...r, sentScanId: batch[r.index]?.scanId ?? "" })),
          data.progress,
        );
      }
    } catch {
      // Offline again, or someone else signed in: the rest waits for the next time.
    } finally {
      replaying.delete(sessionId);
      await countPending(sessionId).catch(() => undefined);
    }
  })();
  replaying.set(sessionId, run);
  return run;
}

/** At sign-in: whatever this user left queued (in any session) goes out, as them. */
export async function replayAll(): Promise<void> {
  for (const sessionId of await queuedSessions().catch(() => [] as string[])) await replay(sessionId, () => undefined);
}
