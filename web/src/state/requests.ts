/**
 * The requester's and the approvers' state (docs/field-app.md "Roles"): the requestable catalogue,
 * my requests, the open queue, what I hold. Each list is loaded through the API floor; an action
 * reloads what it changed, so the page shows the server's answer.
 */
import { signal } from "@preact/signals";
import { messageOf } from "../api/client";
import * as api from "../api/requests";
import type { Item } from "../api/types";
import { t } from "../strings";
import { can } from "./session";

export type Catalogue = { assets: Item[]; kits: api.Kit[]; stock: api.StockItem[] };
export type Loaded<T> = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; value: T };
export type Said = { tone: "ok" | "error"; message: string } | null;

export const catalogue = signal<Loaded<Catalogue>>({ status: "loading" });
export const said = signal<Said>(null);

type Answer<T> = { data?: T; error?: unknown };
const need = <T>(res: Answer<T>): T => {
  if (res.data === undefined) throw new Error(messageOf(res.error, t.unreachable));
  return res.data;
};
const failure = (e: unknown) => ({ status: "error" as const, message: e instanceof Error ? e.message : t.unreachable });

export async function loadCatalogue(q: string): Promise<void> {
  try {
    const [assets, kits, stock] = await Promise.all([
      api.requestableAssets(q),
      // The kit list has no search: filtered here by name.
      can("listKits") ? api.kits() : null,
      can("listStockItems") ? api.requestableStock(q) : null,
    ]);
    const lower = q.toLowerCase();
    catalogue.value = {
      status: "ready",
      value: {
        assets: need(assets).items,
        kits: (kits ? need(kits).items : []).filter((k) => k.name.toLowerCase().includes(lower)),
        stock: stock ? need(stock).items : [],
      },
    };
  } catch (e) {
    catalogue.value = failure(e);
  }
}

export type Ask =
  | { kind: "asset"; id: string; dueBackAt?: string; startsAt?: string; endsAt?: string; note?: string }
  | { kind: "kit"; id: string; dueBackAt?: string; startsAt?: string; endsAt?: string; note?: string }
  | { kind: "stock"; id: string; quantity: number; note?: string };

/** Sends a request; true when the API took it. */
export async function ask(what: Ask, name: string): Promise<boolean> {
  const { kind, id, ...rest } = what;
  const target = kind === "asset" ? { assetId: id } : kind === "kit" ? { kitId: id } : { stockItemId: id };
  try {
    const res = await api.create({ ...target, ...rest });
    said.value = res.data
      ? { tone: "ok", message: t.catalogue.sent(name) }
      : { tone: "error", message: messageOf(res.error, t.unreachable) };
    return res.data !== undefined;
  } catch {
    said.value = { tone: "error", message: t.unreachable };
    return false;
  }
}

/** A request with the names a person reads: what it is for and for whom. */
export type Shown = { request: api.Request; what: string; who: string | null };
export const myRequests = signal<Loaded<Shown[]>>({ status: "loading" });
export const queue = signal<Loaded<Shown[]>>({ status: "loading" });

const names = new Map<string, Promise<string>>();
function nameOf(kind: "asset" | "kit" | "stock" | "person", id: string, kits: api.Kit[]): Promise<string> {
  const key = `${kind}:${id}`;
  let found = names.get(key);
  if (!found) {
    const call =
      kind === "asset"
        ? api.asset(id).then((r) => r.data?.name)
        : kind === "stock"
          ? api.stockItem(id).then((r) => r.data?.name)
          : kind === "person"
            ? api.person(id).then((r) => r.data?.name)
            : Promise.resolve(kits.find((k) => k.id === id)?.name);
    found = call.then((n) => n ?? t.requests.unknownThing).catch(() => t.requests.unknownThing);
    if (kind !== "kit") names.set(key, found);
  }
  return found;
}

async function withNames(requests: api.Request[], withWho: boolean): Promise<Shown[]> {
  const kits = requests.some((r) => r.kitId) && can("listKits") ? ((await api.kits()).data?.items ?? []) : [];
  return Promise.all(
    requests.map(async (request) => {
      const [kind, id] = request.assetId
        ? (["asset", request.assetId] as const)
        : request.kitId
          ? (["kit", request.kitId] as const)
          : (["stock", request.stockItemId ?? ""] as const);
      const [what, who] = await Promise.all([
        nameOf(kind, id, kits),
        withWho && can("getPerson") ? nameOf("person", request.personId, kits) : null,
      ]);
      return { request, what, who };
    }),
  );
}

export async function loadMine(): Promise<void> {
  try {
    myRequests.value = { status: "ready", value: await withNames(need(await api.mine()).items, false) };
  } catch (e) {
    myRequests.value = failure(e);
  }
}

export async function loadQueue(): Promise<void> {
  try {
    queue.value = { status: "ready", value: await withNames(need(await api.open()).items, true) };
  } catch (e) {
    queue.value = failure(e);
  }
}

async function act(
  call: () => Promise<{ error?: unknown; response: Response }>,
  done: string,
  reload: () => Promise<void>,
) {
  said.value = null;
  try {
    const res = await call();
    said.value = res.response.ok
      ? { tone: "ok", message: done }
      : { tone: "error", message: messageOf(res.error, t.unreachable) };
  } catch {
    said.value = { tone: "error", message: t.unreachable };
  }
  await reload();
}

export const approve = (id: string) => act(() => api.approve(id), t.queue.approved, loadQueue);
export const decline = (id: string) => act(() => api.decline(id), t.queue.declined, loadQueue);
export const cancel = (id: string) => act(() => api.cancel(id), t.requests.cancelled, loadMine);

export type Holdings = {
  assets: Item[];
  stock: { id: string; name: string; quantity: number }[];
  bookings: api.Booking[];
};
export const holdings = signal<Loaded<Holdings | null>>({ status: "loading" });

/** What the person holds: assets (with due dates), returnable stock, bookings. Null: no person. */
export async function loadHoldings(personId: string | null): Promise<void> {
  if (!personId) {
    holdings.value = { status: "ready", value: null };
    return;
  }
  try {
    const [assets, stock, bookings] = await Promise.all([
      api.heldAssets(personId),
      can("listPersonStock") ? api.heldStock(personId) : null,
      can("listBookings") ? api.bookings(can("listPeople") ? personId : null) : null,
    ]);
    const movements = stock ? need(stock).items : [];
    const stockRows = await Promise.all(
      movements.map(async (m) => ({
        id: m.id,
        name: await nameOf("stock", m.itemId, []),
        quantity: m.openQuantity ?? Math.abs(m.quantity),
      })),
    );
    holdings.value = {
      status: "ready",
      value: {
        assets: need(assets).items,
        stock: stockRows,
        bookings: bookings
          ? need(bookings).items.filter((b) => b.status !== "returned" && b.status !== "cancelled")
          : [],
      },
    };
  } catch (e) {
    holdings.value = failure(e);
  }
}
