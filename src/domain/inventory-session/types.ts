/*
 * The shapes that cross the Worker ↔ InventorySession boundary (RPC, structured clone).
 * Plain data only: errors come back as `{ error }` values because RPC drops custom error fields.
 */
import type { ScanResult, SessionStatus } from "../../db/tenant/sessions";
import type { SessionSnapshot } from "./relocate";

export type { ScanResult, SessionStatus };

/** One asset as the object knows it: enough to resolve codes and decide results without D1. */
export interface ItemInfo {
  assetId: string;
  name: string;
  uniqueTag: string;
  locationId: string;
  categoryId: string;
}

export interface ItemState extends ItemInfo {
  source: "scope" | "manual" | "found";
  excluded: boolean;
  wrongLocation: boolean;
  scanId: string | null;
  scannedAt: string | null;
  scannedBy: string | null;
  condition: string | null;
}

/** Everything the object needs to run a session; given at start (or rebuilt from D1 on a cold object). */
export interface InitInput {
  tenantId: string;
  sessionId: string;
  /** The tenant's pool database binding the object writes through to. */
  dbBinding: string;
  name: string;
  status: SessionStatus;
  dueAt: string | null;
  location: { id: string; name: string } | null;
  includeSubLocations: boolean;
  categoryId: string | null;
  /** The scope's location ids (the location and, when included, its sub-locations) at start. */
  scopeLocationIds: string[];
  startedAt: string | null;
  items: ItemState[];
}

/** How a code was parsed by the Worker (src/sessions/codes.ts). */
export type CodeKey = { kind: "id"; value: string } | { kind: "tag"; value: string } | { kind: "none" };

export interface ScanCommand {
  /** Asset id given as `itemId`, or the parsed `code`. */
  key: CodeKey;
  /** The raw code as sent (null when itemId was used); kept for unknown-code reporting. */
  code: string | null;
  allowMarkAnyway: boolean;
  allowRescan: boolean;
  clientScanId: string | null;
  scannedAt: string;
  scannedBy: string;
  condition: string | null;
  comment: string | null;
  photoKeys: string[];
}

export type ScanReason = "unknown_code" | "not_expected" | "excluded" | "outside_scope";

export interface ScanItemView {
  id: string;
  name: string;
  uniqueTag: string;
  locationId: string;
  categoryId: string;
  scannedAt: string | null;
  scannedBy: string | null;
}

export interface ScanOutcome {
  result: ScanResult;
  reason: ScanReason | null;
  /** The server id of the stored scan record; null for a duplicate that was only counted. */
  scanId: string | null;
  clientScanId: string | null;
  /** True when `clientScanId` had been seen: the stored answer is returned again, nothing changes. */
  replayed: boolean;
  rescan: boolean;
  item: ScanItemView | null;
}

export interface Progress {
  scanned: number;
  total: number;
  missing: number;
  found: number;
}

/** `moving`: the workspace is switching shards (a move); the change is refused, to be retried in a moment. */
export type ObjectError = { error: "uninitialized" } | { error: "closed"; status: SessionStatus } | { error: "moving" };

export type ScanBatchAnswer = ObjectError | { outcomes: ScanOutcome[]; progress: Progress };

export interface RecentScan {
  scanId: string;
  itemId: string | null;
  name: string | null;
  uniqueTag: string | null;
  code: string | null;
  result: ScanResult;
  reason: ScanReason | null;
  scannedAt: string;
  scannedBy: string;
  unscanned: boolean;
}

export interface MobilePayload {
  session: { id: string } & Pick<
    InitInput,
    "name" | "status" | "dueAt" | "location" | "includeSubLocations" | "categoryId" | "startedAt"
  >;
  progress: Progress;
  recentScans: RecentScan[];
}

export type UnscanAnswer =
  | ObjectError
  | { error: "not_in_session" }
  | { removed: boolean; item: ItemState; progress: Progress };
export type MembershipAnswer = ObjectError | { item: ItemState; progress: Progress };
export type CloseAnswer = ObjectError | { error: "flush_failed" } | { progress: Progress };

/**
 * The object's RPC surface as the Worker calls it. InventorySession `implements` it, so the two
 * cannot drift; callers use this instead of the stub's generated RPC types (which wrap every field).
 */
export interface SessionObjectApi {
  init(input: InitInput): Promise<{ progress: Progress }>;
  scan(commands: ScanCommand[], receivedAt: string): Promise<ScanBatchAnswer>;
  unscan(key: CodeKey, by: string, at: string): Promise<UnscanAnswer>;
  include(info: ItemInfo): Promise<MembershipAnswer>;
  exclude(info: ItemInfo): Promise<MembershipAnswer>;
  setDetails(details: { name: string; dueAt: string | null }): Promise<ObjectError | { ok: true }>;
  close(status: "completed" | "cancelled"): Promise<CloseAnswer>;
  flush(): Promise<{ ok: boolean }>;
  mobile(): Promise<ObjectError | MobilePayload>;
  destroy(): Promise<void>;
  freeze(): Promise<SessionSnapshot | null>;
  thaw(): Promise<void>;
  restore(snapshot: SessionSnapshot, dbBinding: string): Promise<void>;
}
