/**
 * Checking an asset out to a location or to another asset by scanning the holder's label
 * (`/scan/holder/<asset tag>`: under /scan because the camera's decoder needs that page's CSP).
 * The scanned code is read by ./codes.ts like every other; a location label or an asset label is
 * a holder, anything else is said to be none.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import { messageOf } from "../api/client";
import type { Item } from "../api/types";
import { t } from "../strings";
import { parseCode } from "./codes";

export const holderScanPath = (tag: string) => `/scan/holder/${encodeURIComponent(tag)}`;

export type Holder = { kind: "location" | "asset"; id: string; name: string };

/** The asset being checked out, the holder chosen, and what happened. */
export const subject = signal<Item | null>(null);
export const chosen = signal<Holder | null>(null);
export const holderMessage = signal<{ tone: "ok" | "error" | "warn"; text: string } | null>(null);
export const checkedOut = signal(false);

const say = (message: NonNullable<typeof holderMessage.value>) => {
  holderMessage.value = message;
};

export async function loadSubject(tag: string): Promise<void> {
  subject.value = null;
  chosen.value = null;
  checkedOut.value = false;
  holderMessage.value = null;
  try {
    const { data, error } = await assets.byTag(tag);
    if (data) subject.value = data;
    else holderMessage.value = { tone: "error", text: messageOf(error, t.holder.unknownAsset(tag)) };
  } catch {
    holderMessage.value = { tone: "error", text: t.unreachable };
  }
}

/** A scanned or typed code as the holder: a location's label or another asset's. */
export async function takeHolder(raw: string): Promise<void> {
  const code = parseCode(raw);
  if (code.kind === "empty" || checkedOut.value) return;
  if (code.kind === "otherWorkspace") {
    holderMessage.value = { tone: "warn", text: t.scan.otherWorkspace(code.host) };
    return;
  }
  try {
    if (code.kind === "location") {
      const { data, error } = await assets.location(code.id);
      // The camera reads a label again and again: a read that ends after the checkout changes nothing.
      if (checkedOut.value) return;
      if (!data) return say({ tone: "error", text: messageOf(error, t.location.notFound) });
      chosen.value = { kind: "location", id: data.id, name: data.name };
    } else if (code.kind === "tag") {
      const { data } = await assets.byTag(code.tag);
      if (checkedOut.value) return;
      if (!data) return say({ tone: "error", text: t.holder.unknownAsset(code.tag) });
      if (data.id === subject.value?.id) return;
      chosen.value = { kind: "asset", id: data.id, name: data.name };
    } else {
      holderMessage.value = { tone: "warn", text: t.holder.notHolder };
      return;
    }
    holderMessage.value = null;
  } catch {
    if (!checkedOut.value) holderMessage.value = { tone: "error", text: t.unreachable };
  }
}

/** A checkout on its way: a second tap does not send another. */
let confirming = false;

/** Checks the asset out to the chosen holder; the server's refusal is shown as it says it. */
export async function confirmHolder(): Promise<void> {
  const item = subject.value;
  const holder = chosen.value;
  if (!item || !holder || confirming || checkedOut.value) return;
  confirming = true;
  try {
    const target = holder.kind === "location" ? { locationId: holder.id } : { assetId: holder.id };
    const res = await assets.checkOutTo(item.id, target);
    if (!res.response.ok) {
      holderMessage.value = { tone: "error", text: messageOf(res.error, t.unreachable) };
      return;
    }
    checkedOut.value = true;
    holderMessage.value = { tone: "ok", text: t.holder.done(holder.name) };
  } catch {
    holderMessage.value = { tone: "error", text: t.unreachable };
  } finally {
    confirming = false;
  }
}
