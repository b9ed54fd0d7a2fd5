/**
 * The offline copy of an audited session (docs/field-app.md: reads offline come from the last
 * mobile payload, marked as such): its mobile payload and its expected items, saved in IndexedDB when the
 * session opens online and kept current while the count moves. Offline it answers two questions:
 * what a code probably is (shown beside a queued scan, compared with the server's answer on
 * replay), and what is still missing (less what this phone has scanned or queued).
 */
import * as api from "../api/sessions";
import { deleteCopies, loadCopy, type OfflineCopy, queued, saveCopy } from "../platform/offline-db";
import { parseCode } from "./codes";

let copy: OfflineCopy | undefined;
const scannedHere = new Set<string>();

export type Guess = "expected" | "alreadyScanned" | "notInCopy";

export function itemFor(raw: string) {
  const code = parseCode(raw);
  if (code.kind !== "tag") return undefined;
  return copy?.items.find((i) => i.uniqueTag === code.tag || i.itemId === code.tag);
}

export function guessOf(raw: string): Guess {
  const item = itemFor(raw);
  if (!item || item.state === "excluded") return "notInCopy";
  return item.state === "scanned" || scannedHere.has(item.itemId) ? "alreadyScanned" : "expected";
}

export const markScanned = (itemId: string, on: boolean) =>
  void (on ? scannedHere.add(itemId) : scannedHere.delete(itemId));

let saveTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Items answered while a new copy's pages are being read: a page read before the answer says
 * "missing", so the new copy takes these as scanned.
 */
const answeredMeanwhile = new Set<string>();

/** The server answered a scan of this item: it is scanned (saved to the copy shortly after). */
export function answered(itemId: string): void {
  answeredMeanwhile.add(itemId);
  const item = copy?.items.find((i) => i.itemId === itemId);
  if (!item || item.state === "scanned") return;
  item.state = "scanned";
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => copy && void saveCopy(copy), 300);
}

/** Loads a session's copy; the scans still queued count as scanned here (they survive a reload). */
export async function loadOfflineCopy(sessionId: string): Promise<void> {
  copy = await loadCopy(sessionId);
  scannedHere.clear();
  for (const scan of await queued(sessionId)) {
    const item = itemFor(scan.code);
    if (item) scannedHere.add(item.itemId);
  }
}

/** A new copy: the payload and every item of the session (GET /sessions/{id}/items, all pages). */
export async function saveOfflineCopy(sessionId: string, mobile: api.Mobile): Promise<void> {
  const items: OfflineCopy["items"] = [];
  answeredMeanwhile.clear();
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const { data } = await api.itemsPage(sessionId, cursor);
    if (!data) return;
    for (const i of data.items) items.push({ itemId: i.itemId, name: i.name, uniqueTag: i.uniqueTag, state: i.state });
    if (!data.nextCursor) break;
    cursor = data.nextCursor;
  }
  for (const item of items) if (answeredMeanwhile.has(item.itemId) && item.state === "missing") item.state = "scanned";
  copy = { sessionId, savedAt: new Date().toISOString(), mobile, items };
  await saveCopy(copy);
}

/** Keeps the copy current: the latest payload and, from a complete missing list, each item's state. */
export async function updateOfflineCopy(mobile: api.Mobile, missing: api.SessionItem[] | null): Promise<void> {
  if (!copy) return;
  copy.mobile = mobile;
  copy.savedAt = new Date().toISOString();
  if (missing) {
    const stillMissing = new Set(missing.map((i) => i.itemId));
    for (const item of copy.items)
      if (stillMissing.has(item.itemId)) item.state = "missing";
      else if (item.state === "missing") item.state = "scanned";
  }
  await saveCopy(copy);
}

/** What the audit page shows offline: the copy, with this phone's scans taken off the missing list. */
export function offlineView() {
  if (!copy) return null;
  const mobile = copy.mobile as api.Mobile;
  const missing = copy.items.filter((i) => i.state === "missing" && !scannedHere.has(i.itemId));
  const done = copy.items.filter((i) => i.state === "missing").length - missing.length;
  const progress = { ...mobile.progress, scanned: mobile.progress.scanned + done, missing: missing.length };
  return { mobile, progress, missing: missing as api.SessionItem[], savedAt: copy.savedAt };
}

/** At sign-out: the copies (asset names of the user's sessions) go, from memory and from the phone. */
export async function forgetCopies(): Promise<void> {
  clearTimeout(saveTimer);
  copy = undefined;
  scannedHere.clear();
  await deleteCopies();
}
