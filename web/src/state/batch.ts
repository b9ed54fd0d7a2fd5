/**
 * The batch mode: a list of scanned assets, then one action on all of them through
 * POST /inventory-items/bulk (check out to a person, check in, move to a location), answered per
 * item. Each code is looked up as it is scanned (GET /inventory-items/unique-tag/{tag}, then the code
 * look-up for an asset's other codes), so an unknown code is named at once instead of failing the
 * whole list later.
 */
import { signal } from "@preact/signals";
import { byTag } from "../api/assets";
import { messageOf } from "../api/client";
import { lookup } from "../api/codes";
import { type BulkItem, bulk } from "../api/sessions";
import { cue } from "../platform/feedback";
import { t } from "../strings";
import { parseCode } from "./codes";
import { clearHandoverOffer, offerHandover } from "./handover-offer";
import { can } from "./session";

export type ListedAsset = {
  key: string;
  tag: string;
  id: string | null;
  name: string | null;
  status?: string;
  problem?: string;
};

/**
 * The action that fits the list: check in when everything listed is checked out, check out when
 * it is all available, move otherwise (a move fits any state).
 */
export function fittingAction(items: readonly ListedAsset[]): "checkout" | "checkin" | "move" {
  const known = items.filter((a) => a.status);
  if (known.length && known.every((a) => a.status === "assigned")) return "checkin";
  if (known.length && known.every((a) => a.status === "available")) return "checkout";
  return known.length ? "move" : "checkout";
}
export type BatchAction =
  | { action: "checkout"; personId: string }
  | { action: "checkin" }
  | { action: "move"; locationId: string };

export const list = signal<ListedAsset[]>([]);
export const outcomes = signal<(BulkItem & { name: string })[]>([]);
export const batchMessage = signal("");

export async function addCode(raw: string): Promise<void> {
  const code = parseCode(raw);
  if (code.kind === "empty") return;
  if (code.kind === "otherWorkspace") {
    batchMessage.value = t.scan.otherWorkspace(code.host);
    return cue("unknown");
  }
  if (code.kind !== "tag") {
    batchMessage.value = t.scan.notAnAsset;
    return cue("unknown");
  }
  if (list.value.some((a) => a.tag === code.tag)) {
    batchMessage.value = t.batch.duplicate(code.tag);
    return cue("already");
  }
  const key = `${code.tag}-${Date.now()}`;
  list.value = [...list.value, { key, tag: code.tag, id: null, name: null }];
  try {
    const { data, error } = await assetOf(code.tag);
    // A second label of an asset already listed (its QR, then its Code 128) is the same asset.
    if (data && list.value.some((a) => a.id === data.id && a.key !== key)) {
      list.value = list.value.filter((a) => a.key !== key);
      batchMessage.value = t.batch.duplicate(data.name);
      return cue("already");
    }
    const patch = data
      ? { id: data.id, name: data.name, status: data.status }
      : { problem: messageOf(error, t.batch.unknown) };
    list.value = list.value.map((a) => (a.key === key ? { ...a, ...patch } : a));
    batchMessage.value = data ? t.batch.added(data.name) : t.batch.unknownCode(code.tag);
    cue(data ? "accepted" : "unknown");
  } catch {
    list.value = list.value.map((a) => (a.key === key ? { ...a, problem: t.unreachable } : a));
  }
}

/**
 * The asset a scanned code names: its tag, else one of its other codes (a Code 128, an EAN:
 * docs/labels.md) through the code look-up, for whoever may use it.
 */
async function assetOf(value: string) {
  const found = await byTag(value);
  if (found.data || found.response.status !== 404 || !can("lookupCode")) return found;
  const holder = (await lookup(value)).data?.holder;
  return holder?.kind === "asset" && holder.tag ? byTag(holder.tag) : found;
}

export const remove = (key: string) => {
  list.value = list.value.filter((a) => a.key !== key);
};

export async function run(action: BatchAction): Promise<void> {
  const assets = list.value.filter((a) => a.id);
  const ids = assets.map((a) => a.id as string);
  if (!ids.length) return;
  const body =
    action.action === "move"
      ? { action: "update" as const, ids, locationId: action.locationId }
      : action.action === "checkout"
        ? { action: "checkout" as const, ids, personId: action.personId }
        : { action: "checkin" as const, ids };
  clearHandoverOffer();
  try {
    const { data, error } = await bulk(body);
    if (!data) {
      batchMessage.value = messageOf(error, t.unreachable);
      return;
    }
    outcomes.value = data.items.map((r, i) => ({ ...r, name: assets[i]?.name ?? r.id }));
    offerHandover(data);
    const failed = data.items.filter((r) => !r.ok).length;
    batchMessage.value = t.batch.done(data.items.length - failed, failed);
    cue(failed ? "wrong" : "accepted");
    // Done items leave the list; the ones that failed stay for another try.
    const okIds = new Set(data.items.filter((r) => r.ok).map((r) => r.id));
    list.value = list.value.filter((a) => !a.id || !okIds.has(a.id));
  } catch {
    batchMessage.value = t.unreachable;
  }
}
