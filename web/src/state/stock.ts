/**
 * The stock item's page (`/s/<tag>`): the item of a tag, its quantities per location, recent
 * movements and the returnable issues still out, loaded through the API floor. The actions go
 * through the stock queue (./stock-queue.ts) and reload this when the server has answered: the
 * server's state is what is shown.
 */
import { signal } from "@preact/signals";
import { byTag as assetByTag } from "../api/assets";
import { messageOf } from "../api/client";
import * as stock from "../api/stock";
import { can } from "./session";

export type StockView = {
  item: stock.StockItem;
  levels: stock.StockLevel[];
  movements: stock.StockMovement[];
  openIssues: stock.StockMovement[];
  /** Location names by id (levels and movements name locations by id). */
  places: Map<string, string>;
};

export type StockState =
  | { status: "loading" }
  | { status: "missing"; tag: string }
  | { status: "error"; message: string }
  | { status: "ready"; view: StockView };

export const stockItem = signal<StockState>({ status: "loading" });

let places: Map<string, string> | null = null;

async function locationNames(): Promise<Map<string, string>> {
  if (places) return places;
  if (!can("listLocations")) return new Map();
  const { data } = await stock.allLocations();
  places = new Map((data?.items ?? []).map((l) => [l.id, l.name]));
  return places;
}

/** Loads (or reloads: `quiet` keeps the page on screen meanwhile) the item of a tag. */
export async function loadStock(tag: string, unreachable: string, quiet = false): Promise<void> {
  if (!quiet) stockItem.value = { status: "loading" };
  try {
    const found = await stock.byTag(tag);
    if (found.response.status === 404) {
      stockItem.value = { status: "missing", tag };
      return;
    }
    if (!found.data) {
      stockItem.value = { status: "error", message: messageOf(found.error, unreachable) };
      return;
    }
    const item = found.data;
    // Only what the user's role may read (a requester sees the item, not the ledger): no call the
    // API would refuse.
    const [levels, movements, open, names] = await Promise.all([
      can("listStockLevels") ? stock.levels(item.id) : null,
      can("listStockItemMovements") ? stock.movements(item.id) : null,
      item.returnable && can("listStockMovements") ? stock.openIssues(item.id) : null,
      locationNames(),
    ]);
    stockItem.value = {
      status: "ready",
      view: {
        item,
        levels: levels?.data?.items ?? [],
        movements: movements?.data?.items ?? [],
        openIssues: open?.data?.items ?? [],
        places: names,
      },
    };
  } catch {
    if (!quiet || stockItem.value.status !== "ready") stockItem.value = { status: "error", message: unreachable };
  }
}

/** A location's name for display; a new one (made after the names were read) reads its id. */
export const placeName = (view: StockView, id: string | null) => (id ? (view.places.get(id) ?? id) : "");

/** Audit sessions taking scans, to count in. */
export async function countableSessions(): Promise<{ id: string; name: string }[]> {
  const { data } = await stock.activeSessions();
  return (data?.items ?? []).map((s) => ({ id: s.id, name: s.name }));
}

/** Counts the item at a location in a session; the answer carries the variance. */
export async function countIn(sessionId: string, itemId: string, locationId: string, countedQuantity: number) {
  const res = await stock.count(sessionId, {
    itemId,
    locationId,
    countedQuantity,
    scanId: `web-${crypto.randomUUID()}`,
  });
  return res.data ? { count: res.data.count } : { error: messageOf(res.error, `HTTP ${res.response.status}`) };
}

/** The asset an issue goes to, by its tag (typed or scanned): its id, or null. */
export async function assetIdOf(tag: string): Promise<{ id: string; name: string } | null> {
  const { data } = await assetByTag(tag.trim());
  return data ? { id: data.id, name: data.name } : null;
}
