/**
 * The scanner's IndexedDB (idb): the queue of scans not yet answered by the server, and the
 * offline copy of each audited session (its mobile payload and expected items). Scans keep the
 * `scanId` they were given when taken, so a replay is answered once however often it is sent.
 *
 * A phone can be shared: each user of each workspace has a database of their own
 * (`inventory-scanner/<workspace host>/<user id>`), opened only while that user is signed in
 * (`useOwner`). Another user's queue is never read, so it can never be sent under their token.
 */
import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from "idb";

export type QueuedScan = {
  scanId: string;
  /** Who took it (a user id): it is sent only under their token. */
  by: string;
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

/**
 * A stock movement made on the phone (issue, receive, return, transfer, adjust), kept until the
 * server has answered it. `key` is its Idempotency-Key. A refusal (e.g. it would take the
 * quantity below zero) is kept too, with the server's message, until the person has read it.
 */
export type QueuedMove = {
  key: string;
  by: string;
  stockItemId: string;
  /** What the page shows while it waits: the item's name and tag. */
  itemName: string;
  itemTag: string;
  kind: "issue" | "receive" | "return" | "transfer" | "adjust";
  body: Record<string, unknown>;
  takenAt: string;
  seq: number;
  refused?: string;
};

/** A hand-over signed on this phone and not yet answered by the server (state/signature-queue.ts). */
export type QueuedSignature = {
  /** One per hand-over: the key, so a second signature of the same hand-over replaces the first. */
  handoverId: string;
  by: string;
  signerName: string;
  signaturePng?: string;
  signedAt: string;
};

interface ScannerDb extends DBSchema {
  queue: { key: string; value: QueuedScan; indexes: { bySession: string } };
  copies: { key: string; value: OfflineCopy };
  moves: { key: string; value: QueuedMove };
  signatures: { key: string; value: QueuedSignature };
}

/** Whose stores are open: a user of a workspace (the host: one origin per workspace). */
export type Owner = { workspace: string; userId: string };

let owner: Owner | null = null;
let db: Promise<IDBPDatabase<ScannerDb>> | null = null;

const dbName = (o: Owner) => `inventory-scanner/${o.workspace}/${o.userId}`;
const openFor = (o: Owner) =>
  openDB<ScannerDb>(dbName(o), 3, {
    upgrade(d, oldVersion) {
      if (oldVersion < 1) {
        d.createObjectStore("queue", { keyPath: "scanId" }).createIndex("bySession", "sessionId");
        d.createObjectStore("copies", { keyPath: "sessionId" });
      }
      // Version 2: stock movements made offline (state/stock-queue.ts).
      if (oldVersion < 2) d.createObjectStore("moves", { keyPath: "key" });
      // Version 3: signatures of hand-overs taken offline (state/signature-queue.ts).
      if (oldVersion < 3) d.createObjectStore("signatures", { keyPath: "handoverId" });
    },
  });

/**
 * The one database of the app's first versions, shared by whoever was signed in. Its copies belong
 * to nobody we can name and its queue cannot be sent as anyone safely, so the first sign-in of this
 * version deletes it (its unsent scans with it: docs/field-app.md, "A shared phone").
 */
const LEGACY_DB = "inventory-scanner";
let legacyDeleted = false;

/** The user whose stores the calls below read and write; null closes them (signed out). */
export function useOwner(next: Owner | null): void {
  if (next && !legacyDeleted) {
    legacyDeleted = true;
    void deleteDB(LEGACY_DB).catch(() => undefined);
  }
  if (owner && next && dbName(owner) === dbName(next)) return;
  void db?.then((d) => d.close()).catch(() => undefined);
  db = null;
  owner = next;
}

export const currentOwner = () => owner;

const open = () => {
  if (!owner) return Promise.reject(new Error("nobody is signed in: the offline stores are closed"));
  db ??= openFor(owner);
  return db;
};

/** Deletes the owner's offline copies (what the sessions held: asset names); the queue stays. */
export async function deleteCopies(): Promise<void> {
  await (await open()).clear("copies");
}

/** The sessions this user has scans queued for. */
export async function queuedSessions(): Promise<string[]> {
  const ids = await (await open()).getAll("queue");
  return [...new Set(ids.map((s) => s.sessionId))];
}

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

export async function putMove(move: QueuedMove): Promise<void> {
  await (await open()).put("moves", move);
}

/** Every queued or refused movement of this user, in the order made. */
export async function allMoves(): Promise<QueuedMove[]> {
  return (await (await open()).getAll("moves")).sort((a, b) => a.seq - b.seq);
}

export async function deleteMove(key: string): Promise<void> {
  await (await open()).delete("moves", key);
}

export async function enqueueSignature(s: QueuedSignature): Promise<void> {
  await (await open()).put("signatures", s);
}

export async function queuedSignatures(): Promise<QueuedSignature[]> {
  return (await open()).getAll("signatures");
}

export async function dequeueSignature(handoverId: string): Promise<void> {
  await (await open()).delete("signatures", handoverId);
}
