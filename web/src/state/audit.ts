/**
 * The audit mode: one active session, its live progress and missing list, and the results of this
 * phone's scans. Progress and the latest scans (everyone's) come from GET /sessions/{id}/mobile,
 * polled while the page is open; the missing list from GET /sessions/{id}/missing when the count
 * moves. Offline, the page shows the session's offline copy (offline-copy.ts), marked as such, and
 * scans wait in the queue (scan-queue.ts).
 */
import { effect, signal } from "@preact/signals";
import { messageOf } from "../api/client";
import * as api from "../api/sessions";
import { cue } from "../platform/feedback";
import { queued } from "../platform/offline-db";
import { t } from "../strings";
import { online } from "./network";
import * as copy from "./offline-copy";
import { countPending, pending, replay, scanRequest, sent, take } from "./scan-queue";

export type ResultKind = "accepted" | "already" | "wrong" | "unknown" | "notExpected" | "queued" | "refused";
export type ScanEntry = {
  key: string;
  kind: ResultKind;
  code: string;
  name: string | null;
  itemId: string | null;
  /** Offline only: what the offline copy says about the code. */
  guess?: copy.Guess;
  message?: string;
  undone?: boolean;
  resolved?: boolean;
  /** When the code appeared in the camera (performance.now()), for the latency measure. */
  seenAt?: number;
};

export const sessionId = signal<string | null>(null);
export const mobile = signal<api.Mobile | null>(null);
export const progress = signal<api.Progress | null>(null);
export const missingItems = signal<api.SessionItem[]>([]);
export const results = signal<ScanEntry[]>([]);
/** When the offline copy being shown was saved; null while the server answers. */
export const copySavedAt = signal<string | null>(null);
export const auditError = signal("");

let timer: ReturnType<typeof setInterval> | undefined;
let missingFor = -1;

const KIND: Record<string, ResultKind> = { accepted: "accepted", already_scanned: "already", wrong_location: "wrong" };
export const kindOf = (o: { result: string; reason: string | null }): ResultKind =>
  KIND[o.result] ?? (o.reason === "unknown_code" ? "unknown" : "notExpected");
const CUE = {
  accepted: "accepted",
  already: "already",
  wrong: "wrong",
  unknown: "unknown",
  notExpected: "unknown",
  queued: "queued",
  refused: "unknown",
} as const;

function show(entry: ScanEntry) {
  results.value = [entry, ...results.value].slice(0, 50);
  cue(CUE[entry.kind]);
}
const update = (key: string, patch: Partial<ScanEntry>) => {
  results.value = results.value.map((e) => (e.key === key ? { ...e, ...patch } : e));
};

export async function openSession(id: string): Promise<void> {
  if (sessionId.value === id) return;
  sessionId.value = id;
  missingFor = -1;
  await copy.loadOfflineCopy(id);
  // What is still queued (a reload offline) is listed again as queued.
  results.value = (await queued(id))
    .reverse()
    .slice(0, 50)
    .map((q) => ({
      key: q.scanId,
      kind: "queued" as const,
      code: q.code,
      name: copy.itemFor(q.code)?.name ?? null,
      itemId: null,
    }));
  await countPending(id);
  await refresh(true);
  clearInterval(timer);
  timer = setInterval(() => void refresh(false), 2000);
}

export function closeSession(): void {
  clearInterval(timer);
  sessionId.value = null;
  mobile.value = null;
}

/** Refreshes are numbered: an older answer never overwrites a newer one (a poll under way when an undo lands). */
let started = 0;
let applied = 0;
let appliedMissing = 0;

/** Live state from the server; offline, the offline copy. `full` also renews the offline copy. */
async function refresh(full: boolean): Promise<void> {
  const n = ++started;
  const id = sessionId.value;
  if (!id) return;
  try {
    const { data, error } = await api.mobile(id);
    if (!data) {
      auditError.value = messageOf(error, "");
      return;
    }
    // (The first, full refresh always goes on: it saves the offline copy.)
    if (n < applied && !full) return;
    applied = Math.max(applied, n);
    // The missing list follows the count (ours or anyone's scans and undos move it).
    const moved = missingFor !== data.progress.scanned || full;
    missingFor = data.progress.scanned;
    mobile.value = data;
    progress.value = data.progress;
    copySavedAt.value = null;
    // The server answers again (after a failure the browser did not call offline): send the queue.
    if (pending.value > 0) void replayQueue(id);
    if (moved) {
      const m = await api.missing(id, 100);
      // Refreshes overlap (one per scan); their missing lists can come back out of order. Only the
      // newest may set the list, and the offline copy: an older one would mark scanned items missing.
      const newest = m.data && n >= appliedMissing ? m.data : null;
      if (newest) {
        appliedMissing = n;
        missingItems.value = newest.items;
      }
      if (full) await copy.saveOfflineCopy(id, data);
      else if (newest) await copy.updateOfflineCopy(data, newest.nextCursor ? null : newest.items);
    }
  } catch {
    const view = copy.offlineView();
    if (view) {
      mobile.value = view.mobile;
      progress.value = view.progress;
      missingItems.value = view.missing;
      copySavedAt.value = view.savedAt;
    }
  }
}

const GUESS = { expected: "accepted", alreadyScanned: "already_scanned", notInCopy: "not_in_session" } as const;

/**
 * Whether an answer ends a scan. A 5xx, a timeout, throttling or a lost sign-in (401 after the
 * refresh failed) leave it queued for the replay; any other answer (a result, a 409 for a closed
 * session, a 400) is final and shown.
 */
const isFinal = (status: number) => status < 500 && ![401, 408, 429].includes(status);

/** One code from the camera, the wedge or the keyboard. */
export async function submit(raw: string, seenAt?: number, allowMarkAnyway = false): Promise<void> {
  const id = sessionId.value;
  const code = raw.trim();
  if (!id || !code) return;
  // Longer than any code the API takes (MAX_CODE_LENGTH): it would block a replay batch (400).
  if (code.length > 512)
    return show({
      key: `long-${Date.now()}`,
      kind: "refused",
      code: `${code.slice(0, 40)}…`,
      name: null,
      itemId: null,
      message: t.audit.tooLong,
    });
  const guess = copy.guessOf(code);
  const item = copy.itemFor(code);
  if (item) copy.markScanned(item.itemId, true);
  const scan = await take(id, code, GUESS[guess], online.value, allowMarkAnyway);
  const queuedEntry: ScanEntry = {
    key: scan.scanId,
    kind: "queued",
    code,
    name: item?.name ?? null,
    itemId: null,
    guess,
    seenAt,
  };
  if (!online.value) return show(queuedEntry);
  let settled = false;
  try {
    const { data, error, response } = await api.scan(id, scanRequest(scan), scan.by);
    settled = isFinal(response.status);
    if (data) {
      progress.value = data.progress;
      const itemId = data.item?.id;
      if (itemId && (data.result === "accepted" || data.result === "already_scanned")) {
        copy.answered(itemId);
        // The server counts it: off the missing list now, not at the next poll.
        missingItems.value = missingItems.value.filter((i) => i.itemId !== itemId);
      }
      show({
        key: scan.scanId,
        kind: kindOf(data),
        code,
        name: data.item?.name ?? null,
        itemId: data.item?.id ?? null,
        seenAt,
      });
    } else if (settled) {
      show({ ...queuedEntry, kind: "refused", message: messageOf(error, String(response.status)) });
    } else {
      show(queuedEntry);
    }
  } catch {
    show(queuedEntry);
  } finally {
    await sent(scan, settled);
  }
}

/** Wrong location: the person confirms the asset is here anyway. */
export async function markAnyway(entry: ScanEntry): Promise<void> {
  update(entry.key, { resolved: true });
  await submit(entry.code, undefined, true);
}

/** A mis-scan: the item counts as missing again (POST /sessions/{id}/unscan). */
export async function undo(entry: ScanEntry): Promise<void> {
  const id = sessionId.value;
  if (!id || !entry.itemId) return;
  try {
    const { data, error } = await api.unscan(id, entry.itemId);
    if (!data) {
      auditError.value = messageOf(error, "");
      return;
    }
    update(entry.key, { undone: true });
    copy.markScanned(entry.itemId, false);
    const itemId = entry.itemId;
    if (data.removed && !missingItems.value.some((i) => i.itemId === itemId)) {
      const tag = copy.itemFor(entry.code)?.uniqueTag ?? "";
      const back = { itemId, name: entry.name ?? entry.code, uniqueTag: tag } as api.SessionItem;
      missingItems.value = [...missingItems.value, back];
    }
    progress.value = data.progress;
    cue("undone");
    await refresh(false);
  } catch {
    auditError.value = t.audit.undoOffline;
  }
}

/** Replays the queue; the rows of replayed scans take the server's answers. */
function replayQueue(id: string): Promise<void> {
  return replay(id, (answers, p) => {
    progress.value = p;
    const byScan = new Map(answers.map((a) => [a.sentScanId, a]));
    results.value = results.value.map((e) => {
      const a = byScan.get(e.key);
      return a
        ? { ...e, kind: kindOf(a), name: a.item?.name ?? e.name, itemId: a.item?.id ?? null, guess: undefined }
        : e;
    });
  });
}

// Back online: the queue goes first, then the live state.
effect(() => {
  const id = sessionId.value;
  if (online.value && id) void replayQueue(id).then(() => refresh(false));
});
