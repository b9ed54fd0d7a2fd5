import type { ApiError } from "../../../platform/errors";
import type { AssetInput } from "../input";
import type { StatusChange } from "../status";
import type { Asset } from "../view";
import type { AssetChange } from "../write";

/** The most ids one bulk request may name. */
export const MAX_BULK_IDS = 100;

/** What one bulk request asks of every id it names: one action, with its fields. */
export type BulkInput = { ids: string[] } & (
  | ({ action: "update" } & Omit<AssetInput, "uniqueTag" | "customFields">)
  | ({ action: "status" } & StatusChange)
  | { action: "checkout"; personId: string; dueBackAt?: string }
  | { action: "checkin"; notes?: string | null }
  | { action: "delete" }
  | { action: "restore" }
);

/** What the plan decided for each id: an error, or a change (null: nothing to write, e.g. an update that changes nothing). */
export type Verdict = { error: ApiError } | { asset: Asset; change: AssetChange | null };
