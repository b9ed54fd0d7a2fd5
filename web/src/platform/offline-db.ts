/**
 * The scanner's IndexedDB (idb): the queue of scans not yet answered by the server, and the
 * offline copy of each audited session (its mobile payload and expected items). Scans keep the
 * `scanId` they were given when taken, so a replay is answered once however often it is sent.
 */
import { type DBSchema, type IDBPDatabase, openDB } from "idb";

export type QueuedScan = {
  scanId: string;
  sessionId: string;
  code: string;
  scannedAt: string;
  allowMarkAnyway?: boolean;
  /** What the offline copy predicted (compared with the server's answer on replay). */
  guess: "accepted" | "already_scanned" | "not_in_session";
  seq: number;
};

export type OfflineCopy = {
  sessionId: string;
  savedAt: string;
  /** The mobile payload as last fetched (session, progress, latest scans). */
  mobile: unknown;
  items: { itemId: string; name: string; uniqueTag: string; state: string }[];
};

interface ScannerDb extends DBSchema {
  queue: { key: string; value: QueuedScan; indexes: { bySession: string } };
  copies: { key: string; value: OfflineCopy };
}

let db: Promise<IDBPDatabase<ScannerDb>> | null = null;
const open = () =>
  (db ??= openDB<ScannerDb>("inventory-scanner", 1, {
    upgrade(d) {
      d.createObjectStore("queue", { keyPath: "scanId" }).createIndex("bySession", "sessionId");
      d.createObjectStore("copies", { keyPath: "sessionId" });
    },
  }));

export async function enqueue(scan: QueuedScan): Promise<void> {
  await (await open()).put("queue", scan);
}

/** A session's queued scans in the order they were taken. */
export async function queued(sessionId: string): Promise<QueuedScan[]> {
  const all = await (await open()).getAllFromIndex("queue", "bySession", sessionId);
  return all.sort((a, b) => a.seq - b.seq);
}

/** The scanIds a session has in the queue. */
export async function queuedIds(sessionId: string): Promise<string[]> {
  return (await open()).getAllKeysFromIndex("queue", "bySession", sessionId);
}

export async function dequeue(scanIds: string[]): Promise<void> {
  const tx = (await open()).transaction("queue", "readwrite");
  await Promise.all([...scanIds.map((id) => tx.store.delete(id)), tx.done]);
}

export async function saveCopy(copy: OfflineCopy): Promise<void> {
  await (await open()).put("copies", copy);
}

export async function loadCopy(sessionId: string): Promise<OfflineCopy | undefined> {
  return (await open()).get("copies", sessionId);
}
