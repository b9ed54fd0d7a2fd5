/**
 * The asset page's state: the asset of a tag and what surrounds it (health, maintenance,
 * bookings, assignee, location, photo), loaded through the API floor. `load` is called by the
 * page; the actions reload what they change. The server's answer is what is shown.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import type { Booking, Health, Item, MaintenanceSchedule } from "../api/types";
import { codePage } from "./codes";
import { navigate } from "./router";
import { can } from "./session";

export type AssetView = {
  item: Item;
  /** Null when unknown; `shows` says which of the surroundings the user may read at all. */
  health: Health | null;
  nextMaintenance: MaintenanceSchedule | null;
  bookings: Booking[];
  /** Who each booking is for, by person id, when the user may read people. */
  bookedFor: Record<string, string>;
  assigneeName: string | null;
  locationName: string | null;
  photoUrl: string | null;
  /** How many assets are checked out to this one (a check-in may bring them back too). */
  holds: number;
  shows: { health: boolean; maintenance: boolean; location: boolean };
};

export type AssetState =
  | { status: "loading" }
  | { status: "missing"; tag: string; trashed: Item | null }
  | { status: "error"; message: string }
  | { status: "ready"; view: AssetView };

export const asset = signal<AssetState>({ status: "loading" });

export async function loadAsset(tag: string, unreachable: string): Promise<void> {
  asset.value = { status: "loading" };
  try {
    const found = await assets.byTag(tag);
    if (found.response.status === 404) {
      // No asset's tag, but perhaps another code of something (a Code128 on an old label) or a
      // reserved label not claimed yet (docs/labels.md): its holder's page, or the claim page.
      const to = can("lookupCode") ? await codePage(tag) : null;
      if (to) return navigate(to, { replace: true });
      // Deleted assets are looked for only by those who may restore them.
      const trashed = can("restoreTrashItems") ? await trashedWithTag(tag) : null;
      asset.value = { status: "missing", tag, trashed };
      return;
    }
    if (!found.data) {
      asset.value = { status: "error", message: found.error?.message ?? unreachable };
      return;
    }
    asset.value = { status: "ready", view: await surroundings(found.data) };
  } catch {
    asset.value = { status: "error", message: unreachable };
  }
}

/**
 * Only the calls the user's role may make (GET /auth/permissions): a requester reads the asset and
 * its bookings but not its health, maintenance, holder's record or location, so the page leaves
 * those out instead of asking and showing "unknown".
 */
async function surroundings(item: Item): Promise<AssetView> {
  const shows = {
    health: can("getInventoryItemHealth"),
    maintenance: can("listItemMaintenanceSchedules"),
    location: can("getLocation"),
  };
  const none = Promise.resolve(null);
  const [health, schedules, reserved, out, assignee, location, photo, held] = await Promise.all([
    shows.health ? assets.health(item.id) : none,
    shows.maintenance ? assets.maintenance(item.id) : none,
    can("listBookings") ? assets.openBookings(item.id, "reserved") : none,
    can("listBookings") ? assets.openBookings(item.id, "checked_out") : none,
    item.assigneeId && !item.holder && can("getPerson") ? assets.person(item.assigneeId) : none,
    shows.location ? assets.location(item.locationId) : none,
    item.imageKey && can("getObjectViewUrl") ? assets.photoUrl(item.imageKey) : none,
    item.status === "assigned" && can("checkinInventoryItem") ? assets.heldBy(item.id) : none,
  ]);
  const nextMaintenance = schedules?.data?.items.find((s) => s.status === "active") ?? null;
  const bookings = [...(out?.data?.items ?? []), ...(reserved?.data?.items ?? [])].sort((a, b) =>
    a.startsAt.localeCompare(b.startsAt),
  );
  const bookedFor: Record<string, string> = {};
  if (can("getPerson")) {
    const ids = [...new Set(bookings.map((b) => b.personId))];
    const found = await Promise.all(ids.map((id) => assets.person(id).catch(() => null)));
    for (const p of found) if (p?.data) bookedFor[p.data.id] = p.data.name;
  }
  return {
    item,
    bookedFor,
    health: health?.data ?? null,
    nextMaintenance,
    bookings,
    assigneeName: item.holder?.name ?? assignee?.data?.name ?? null,
    locationName: location?.data?.name ?? null,
    photoUrl: photo?.data?.url ?? null,
    holds: held?.data?.items.length ?? 0,
    shows,
  };
}

/** A deleted asset that had this tag (tags compare case-insensitively), if any. */
async function trashedWithTag(tag: string): Promise<Item | null> {
  const { data } = await assets.trashedByTag(tag);
  const lower = tag.toLowerCase();
  return data?.items.find((i) => i.deletedAt && i.uniqueTag.toLowerCase() === lower) ?? null;
}
