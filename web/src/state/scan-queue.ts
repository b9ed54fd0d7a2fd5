/**
 * The offline queue (DESIGN 6: "offline is a queue, not a cache of truth"). Every audit scan is
 * written to IndexedDB with its `scanId` before it is sent, and leaves the queue only when the
 * server has answered it. Back online, what is left goes through POST /sessions/{id}/scan/batch
 * (500 at a time); the server answers a repeated scanId with its first answer, so a scan that was
 * sent twice (a lost response, a reload mid-replay) still counts once. Where the server's answer
 * differs from what the offline copy predicted, the screen lists it: the server's answer wins.
 */
import { signal } from "@preact/signals";
import { type Progress, type ScanRequest, scanBatch } from "../api/sessions";
import { dequeue, enqueue, type QueuedScan, queued } from "../platform/offline-db";

export type Differing = { scanId: string; code: string; guess: QueuedScan["guess"]; result: string; name: string | null };

export const pending = signal(0);
export const differing = signal<Differing[]>([]);
export const replayError = signal("");

/** Scans being sent one by one right now: a replay leaves them to that request. */
const inflight = new Set<string>();
let seq = 0;
let replaying: Promise<void> | null = null;

export const scanRequest = (s: QueuedScan): ScanRequest => ({
  code: s.code,
  scanId: s.scanId,
  scannedAt: s.scannedAt,
  ...(s.allowMarkAnyway ? { allowMarkAnyway: true } : {}),
});

export async function countPending(sessionId: string): Promise<void> {
  pending.value = (await queued(sessionId)).length;
}

/** Writes a scan to the queue; it stays there until `settle` (an answer) removes it. */
export async function take(
  sessionId: string,
  code: string,
  guess: QueuedScan["guess"],
  allowMarkAnyway = false,
): Promise<QueuedScan> {
  const scan: QueuedScan = {
    scanId: `web-${crypto.randomUUID()}`,
    sessionId,
    code,
    scannedAt: new Date().toISOString(),
    guess,
    seq: Date.now() * 1000 + (seq++ % 1000),
    ...(allowMarkAnyway ? { allowMarkAnyway } : {}),
  };
  await enqueue(scan);
  pending.value++;
  return scan;
}

export const sending = (scanId: string, on: boolean) => void (on ? inflight.add(scanId) : inflight.delete(scanId));

export async function settle(scanIds: string[]): Promise<void> {
  await dequeue(scanIds);
  pending.value = Math.max(0, pending.value - scanIds.length);
}

/** Sends what the queue holds for a session; one replay at a time. Stops quietly when offline. */
export function replay(sessionId: string, onProgress: (p: Progress) => void): Promise<void> {
  replaying ??= (async () => {
    try {
      for (;;) {
        const batch = (await queued(sessionId)).filter((s) => !inflight.has(s.scanId)).slice(0, 500);
        if (!batch.length) break;
        const { data, error, response } = await scanBatch(sessionId, batch.map(scanRequest));
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
            diffs.push({ scanId: sent.scanId, code: sent.code, guess: sent.guess, result: r.result, name: r.item?.name ?? null });
        }
        if (diffs.length) differing.value = [...diffs, ...differing.value];
        await settle(batch.map((s) => s.scanId));
        onProgress(data.progress);
      }
    } catch {
      // Offline again: the rest waits for the next time.
    } finally {
      replaying = null;
      await countPending(sessionId);
    }
  })();
  return replaying;
}
