/**
 * Claiming a reserved code (docs/labels.md "Tags before assets"): a label printed before its
 * equipment arrived names nothing until it is attached to an asset, an existing one (found by a
 * search, or by scanning the label it already has) or a new one. `/scan/claim/<value>` lives under
 * /scan because scanning the old label needs the camera's decoder and that page's CSP. The server
 * decides between two phones claiming the same code; the loser is told who won.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import { messageOf } from "../api/client";
import * as codes from "../api/codes";
import { t } from "../strings";
import { parseCode } from "./codes";

export { claimPath } from "./codes";

import { can } from "./session";

export type Target = { id: string; name: string; uniqueTag: string };

export type ClaimState =
  | { status: "loading" }
  | { status: "reserved"; value: string }
  /** Already names something: claimed (perhaps by another phone), or a tag or code of a holder. */
  | { status: "taken"; value: string; holder: NonNullable<codes.CodeLookup["holder"]> }
  | { status: "claimed"; value: string; asset: Target }
  | { status: "missing"; value: string }
  | { status: "error"; value: string; message: string };

export const claim = signal<ClaimState>({ status: "loading" });
/** The asset the code will be attached to (chosen from the search or by its old label). */
export const target = signal<Target | null>(null);
export const claimMessage = signal<{ tone: "ok" | "error" | "warn"; text: string } | null>(null);
export const busy = signal(false);

const asTarget = (a: { id: string; name: string; uniqueTag: string }): Target => ({
  id: a.id,
  name: a.name,
  uniqueTag: a.uniqueTag,
});

/** The name typed for a new asset: kept here, not in the form, so a re-render of the page keeps it. */
export const newName = signal("");
let loadedFor: string | null = null;

/**
 * Loads what the code names now. The page may mount again for the same code (the scanner's modes
 * are re-decided when the session's permissions arrive): what was chosen or typed for it stays.
 */
export async function loadClaim(value: string): Promise<void> {
  if (loadedFor !== value) {
    loadedFor = value;
    target.value = null;
    claimMessage.value = null;
    newName.value = "";
  }
  claim.value = { status: "loading" };
  claim.value = await stateOf(value);
}

async function stateOf(value: string): Promise<ClaimState> {
  try {
    const { data, response } = await codes.lookup(value);
    if (response.status === 404 || !data) return { status: "missing", value };
    if (data.holder) return { status: "taken", value, holder: data.holder };
    return { status: "reserved", value: data.value };
  } catch {
    return { status: "error", value, message: t.unreachable };
  }
}

/** Assets for the search box (the picker shows names; the tag tells two alike apart). */
export async function searchAssets(q: string): Promise<Target[]> {
  try {
    const { data } = await assets.search(q);
    return (data?.items ?? []).map(asTarget);
  } catch {
    return [];
  }
}

/** A scanned or typed code as the asset to attach to: its old label (its tag, or another of its codes). */
export async function takeOldLabel(raw: string): Promise<void> {
  const s = claim.value;
  if (s.status !== "reserved" || busy.value) return;
  const code = parseCode(raw);
  if (code.kind === "empty") return;
  if (code.kind === "otherWorkspace") {
    claimMessage.value = { tone: "warn", text: t.scan.otherWorkspace(code.host) };
    return;
  }
  if (code.kind !== "tag") {
    claimMessage.value = { tone: "warn", text: t.claim.notAnAssetLabel };
    return;
  }
  // The camera sees the new label too while it is held near the old one: that is not a choice.
  if (code.tag.toLowerCase() === s.value.toLowerCase()) return;
  try {
    const { data } = await assets.byTag(code.tag);
    if (data) {
      target.value = asTarget(data);
      claimMessage.value = null;
      return;
    }
    const holder = (await codes.lookup(code.tag)).data?.holder;
    if (holder?.kind === "asset") {
      target.value = { id: holder.id, name: holder.name, uniqueTag: holder.tag ?? code.tag };
      claimMessage.value = null;
      return;
    }
    claimMessage.value = { tone: "warn", text: t.claim.unknownLabel(code.tag) };
  } catch {
    claimMessage.value = { tone: "error", text: t.unreachable };
  }
}

/** After a refusal, what the code names now (the other phone's claim). */
async function refused(value: string, error: unknown): Promise<void> {
  claimMessage.value = { tone: "error", text: messageOf(error, t.unreachable) };
  const now = await stateOf(value);
  if (now.status !== "reserved") claim.value = now;
}

/** Attaches the reserved code to the chosen asset: exactly once, the server decides. */
export async function claimFor(asset: Target): Promise<void> {
  const s = claim.value;
  if (s.status !== "reserved" || busy.value) return;
  busy.value = true;
  try {
    const res = await codes.claim(s.value, asset.id);
    if (!res.response.ok) return await refused(s.value, res.error);
    claim.value = { status: "claimed", value: s.value, asset };
    claimMessage.value = { tone: "ok", text: t.claim.done(s.value, asset.name) };
  } catch {
    claimMessage.value = { tone: "error", text: t.unreachable };
  } finally {
    busy.value = false;
  }
}

/**
 * A new asset (its tag generated) with the code. The code is claimed after the asset exists: when
 * another phone won meanwhile, the new asset is deleted again (for whoever may) so no empty
 * duplicate is left behind, and the message names the winner.
 */
export async function createWith(name: string): Promise<void> {
  const s = claim.value;
  if (s.status !== "reserved" || busy.value) return;
  busy.value = true;
  try {
    const made = await assets.createUntagged(name);
    if (!made.data) {
      claimMessage.value = { tone: "error", text: messageOf(made.error, t.unreachable) };
      return;
    }
    const asset = asTarget(made.data);
    const res = await codes.claim(s.value, asset.id);
    if (!res.response.ok) {
      if (can("deleteInventoryItem")) await assets.remove(asset.id);
      return await refused(s.value, res.error);
    }
    claim.value = { status: "claimed", value: s.value, asset };
    claimMessage.value = { tone: "ok", text: t.claim.done(s.value, asset.name) };
  } catch {
    claimMessage.value = { tone: "error", text: t.unreachable };
  } finally {
    busy.value = false;
  }
}
