/**
 * What a scanned or typed code means: the one place the app reads codes (the camera, a
 * keyboard-wedge scanner, a typed code, a pasted label URL all come here). Each kind of label the
 * service prints encodes a page of this app on its workspace host (src/modules/labels/qr.ts):
 * `/a/<tag>` an asset, `/s/<tag>` a stock item, `/k/<kit id>` a kit, `/l/<location id>` a location.
 * A bare code is read the same way: `STK-…` a stock item's generated tag, `kit_…` and `loc_…` ids,
 * anything else an asset's tag (and, for a look-up, a stock item's tag when no asset has it). A
 * label of another host is another workspace's: the app says so instead of looking it up here.
 */
import { byTag as assetByTag } from "../api/assets";
import { type CodeLookup, lookup } from "../api/codes";
import { byTag as stockByTag } from "../api/stock";

export type LabelKind = "asset" | "stock" | "kit" | "location";

export type ScannedCode =
  /** An asset's tag (the scanner's audit and batch modes take only these). */
  | { kind: "tag"; tag: string; bare: boolean }
  | { kind: "stock"; tag: string; bare: boolean }
  | { kind: "kit"; id: string }
  | { kind: "location"; id: string }
  | { kind: "otherWorkspace"; host: string; tag: string }
  | { kind: "empty" };

const PATHS: Record<string, "tag" | "stock" | "kit" | "location"> = { a: "tag", s: "stock", k: "kit", l: "location" };
const ID = /^(kit|loc)_[0-9a-z]{26}$/i;

function ofPath(kind: "tag" | "stock" | "kit" | "location", value: string, bare: boolean): ScannedCode {
  if (kind === "kit" || kind === "location") return { kind, id: value };
  return { kind, tag: value, bare };
}

export function parseCode(raw: string, here: Location | URL = location): ScannedCode {
  const code = raw.trim();
  if (!code) return { kind: "empty" };
  if (/^https?:\/\//i.test(code)) {
    try {
      const url = new URL(code);
      const m = /^\/([askl])\/([^/]+)\/?$/.exec(url.pathname);
      if (m?.[1] && m[2]) {
        const value = decodeURIComponent(m[2]);
        if (url.host !== here.host) return { kind: "otherWorkspace", host: url.host, tag: value };
        return ofPath(PATHS[m[1]]!, value, false);
      }
    } catch {
      // not a URL after all: a bare code
    }
  }
  if (ID.test(code)) return ofPath(code.toLowerCase().startsWith("kit_") ? "kit" : "location", code, true);
  if (/^STK-/i.test(code)) return { kind: "stock", tag: code, bare: true };
  return { kind: "tag", tag: code, bare: true };
}

export const assetPath = (tag: string) => `/a/${encodeURIComponent(tag)}`;
export const stockPath = (tag: string) => `/s/${encodeURIComponent(tag)}`;
export const kitPath = (id: string) => `/k/${encodeURIComponent(id)}`;
export const locationPath = (id: string) => `/l/${encodeURIComponent(id)}`;
/** A person's page: no label opens it (people carry no code), an asset page's holder links to it. */
export const personPath = (id: string) => `/p/${encodeURIComponent(id)}`;
/** A reserved code's claim page (./claim.ts): under /scan, where the camera may scan the old label. */
export const claimPath = (value: string) => `/scan/claim/${encodeURIComponent(value)}`;

/** The page a parsed code opens (a label's kind decides; a bare tag is taken as an asset's). */
export function pathOf(code: ScannedCode): string | null {
  switch (code.kind) {
    case "tag":
      return assetPath(code.tag);
    case "stock":
      return stockPath(code.tag);
    case "kit":
      return kitPath(code.id);
    case "location":
      return locationPath(code.id);
    default:
      return null;
  }
}

/** The page of a code's holder. */
export function holderPath(holder: NonNullable<CodeLookup["holder"]>): string {
  if (holder.kind === "kit") return kitPath(holder.id);
  if (holder.kind === "location") return locationPath(holder.id);
  if (holder.kind === "stockItem") return stockPath(holder.tag ?? holder.id);
  return assetPath(holder.tag ?? holder.id);
}

/**
 * The page a look-up opens. A bare tag that no asset has but a stock item has (a stock tag not of
 * the `STK-` form) opens the stock item: tags are typed without knowing which kind they are. One
 * that no tag names may be one of a thing's other codes (a Code128 or an EAN on its label,
 * docs/labels.md): the code look-up opens its holder's page, or the claim page of a reserved code
 * (`lookUpCodes`: when the user may).
 */
export async function pageFor(code: ScannedCode, { lookUpCodes = false } = {}): Promise<string | null> {
  if (code.kind === "tag" && code.bare) {
    try {
      const asset = await assetByTag(code.tag);
      if (asset.response.status !== 404) return pathOf(code);
      if ((await stockByTag(code.tag)).data) return stockPath(code.tag);
      if (lookUpCodes) return (await codePage(code.tag)) ?? pathOf(code);
    } catch {
      // Offline: the asset page says so.
    }
  }
  return pathOf(code);
}

/**
 * The page a value that is no tag opens by the code look-up: its holder's, or the claim page of a
 * reserved (printed, unclaimed) code; null when no code reads so.
 */
export async function codePage(value: string): Promise<string | null> {
  const { data } = await lookup(value);
  if (!data) return null;
  if (data.holder) return holderPath(data.holder);
  return data.status === "reserved" ? claimPath(data.value) : null;
}
