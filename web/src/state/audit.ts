/**
 * The audit mode: one active session, its live progress and missing list, and the results of this
 * phone's scans. Progress and the latest scans (everyone's) come from GET /sessions/{id}/mobile,
 * polled while the page is open; the missing list from GET /sessions/{id}/missing when the count
 * moves. Offline, the page shows the session's offline copy (its mobile payload and expected
 * items, saved when it was opened online), marked as such, and scans wait in the queue.
 */
import { effect, signal } from "@preact/signals";
import { messageOf } from "../api/client";
import * as api from "../api/sessions";
import { cue } from "../platform/feedback";
import { loadCopy, type OfflineCopy, saveCopy } from "../platform/offline-db";
import { t } from "../strings";
import { parseCode } from "./codes";
import { online } from "./network";
import { countPending, replay, scanRequest, sent, take } from "./scan-queue";

export type ResultKind = "accepted" | "already" | "wrong" | "unknown" | "notExpected" | "queued" | "refused";
export type ScanEntry = {
  key: string;
  kind: ResultKind;
  code: string;
  name: string | null;
  itemId: string | null;
  /** Offline only: what the offline copy says about the code. */
  guess?: "expected" | "alreadyScanned" | "notInCopy";
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

let copy: OfflineCopy | undefined;
const scannedHere = new Set<string>();
let timer: ReturnType<typeof setInterval> | undefined;
let missingFor = -1;

const KIND: Record<string, ResultKind> = { accepted: "accepted", already_scanned: "already", wrong_location: "wrong" };
export const kindOf = (o: { result: string; reason: string | null }): ResultKind =>
  KIND[o.result] ?? (o.reason === "unknown_code" ? "unknown" : "notExpected");
const CUE = { accepted: "accepted", already: "already", wrong: "wrong", unknown: "unknown", notExpected: "unknown", queued: "queued", refused: "unknown" } as const;

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
  results.value = [];
  missingFor = -1;
  scannedHere.clear();
  copy = await loadCopy(id);
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

/** Live state from the server; offline, the offline copy. `full` also renews the offline copy. */
async function refresh(full: boolean): Promise<void> {
  const id = sessionId.value;
  if (!id) return;
  try {
    const { data, error } = await api.mobile(id);
    if (!data) {
      auditError.value = messageOf(error, "");
      return;
    }
    // The missing list follows the count (ours or anyone's scans and undos move it).
    const moved = missingFor !== data.progress.scanned || full;
    missingFor = data.progress.scanned;
    mobile.value = data;
    progress.value = data.progress;
    copySavedAt.value = null;
    if (moved) {
      const m = await api.missing(id);
      if (m.data) missingItems.value = m.data.items;
    }
    if (full) await saveOfflineCopy(id, data);
  } catch {
    if (copy) {
      mobile.value = copy.mobile as api.Mobile;
      progress.value ??= mobile.value.progress;
      missingItems.value = missingItems.value.length
        ? missingItems.value
        : (copy.items.filter((i) => i.state === "missing") as api.SessionItem[]);
      copySavedAt.value = copy.savedAt;
    }
  }
}

async function saveOfflineCopy(id: string, data: api.Mobile): Promise<void> {
  const items: OfflineCopy["items"] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const { data: p } = await api.itemsPage(id, cursor);
    if (!p) return;
    for (const i of p.items) items.push({ itemId: i.itemId, name: i.name, uniqueTag: i.uniqueTag, state: i.state });
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  copy = { sessionId: id, savedAt: new Date().toISOString(), mobile: data, items };
  await saveCopy(copy);
}

/** What the offline copy says about a code (a tag or a label URL). */
function guessOf(raw: string): ScanEntry["guess"] {
  const code = parseCode(raw);
  const tag = code.kind === "tag" ? code.tag : null;
  const item = tag ? copy?.items.find((i) => i.uniqueTag === tag || i.itemId === tag) : undefined;
  if (!item || item.state === "excluded") return "notInCopy";
  return item.state === "scanned" || scannedHere.has(item.itemId) ? "alreadyScanned" : "expected";
}
const GUESS = { expected: "accepted", alreadyScanned: "already_scanned", notInCopy: "not_in_session" } as const;

/** One code from the camera, the wedge or the keyboard. */
export async function submit(raw: string, seenAt?: number, allowMarkAnyway = false): Promise<void> {
  const id = sessionId.value;
  const code = raw.trim();
  if (!id || !code) return;
  const guess = guessOf(code);
  const item = copy?.items.find((i) => {
    const c = parseCode(code);
    return c.kind === "tag" && (i.uniqueTag === c.tag || i.itemId === c.tag);
  });
  if (item) scannedHere.add(item.itemId);
  const scan = await take(id, code, GUESS[guess ?? "notInCopy"], online.value, allowMarkAnyway);
  const queuedEntry: ScanEntry = { key: scan.scanId, kind: "queued", code, name: item?.name ?? null, itemId: null, guess, seenAt };
  if (!online.value) return show(queuedEntry);
  let settled = false;
  try {
    const { data, error, response } = await api.scan(id, scanRequest(scan));
    // A 5xx leaves the scan queued for the replay; any other answer is final.
    settled = response.status < 500;
    if (data) {
      progress.value = data.progress;
      show({ key: scan.scanId, kind: kindOf(data), code, name: data.item?.name ?? null, itemId: data.item?.id ?? null, seenAt });
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
    if (!data) return void (auditError.value = messageOf(error, ""));
    update(entry.key, { undone: true });
    scannedHere.delete(entry.itemId);
    progress.value = data.progress;
    cue("undone");
    await refresh(false);
  } catch {
    auditError.value = t.audit.undoOffline;
  }
}

// Back online: the queue goes first, then the live state.
effect(() => {
  const id = sessionId.value;
  if (online.value && id)
    void replay(id, (p) => {
      progress.value = p;
    }).then(() => refresh(false));
});
