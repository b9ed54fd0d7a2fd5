/**
 * The asset page's state: the asset of a tag and what surrounds it (health, maintenance,
 * bookings, assignee, location, photo), loaded through the API floor. `load` is called by the
 * page; the actions reload what they change. The server's answer is what is shown.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import type { Booking, Health, Item, MaintenanceSchedule } from "../api/types";

export type AssetView = {
  item: Item;
  health: Health | null;
  nextMaintenance: MaintenanceSchedule | null;
  bookings: Booking[];
  assigneeName: string | null;
  locationName: string | null;
  photoUrl: string | null;
  /** How many assets are checked out to this one (a check-in may bring them back too). */
  holds: number;
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
      asset.value = { status: "missing", tag, trashed: await trashedWithTag(tag) };
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

async function surroundings(item: Item): Promise<AssetView> {
  const [health, schedules, reserved, out, assignee, location, photo, held] = await Promise.all([
    assets.health(item.id),
    assets.maintenance(item.id),
    assets.openBookings(item.id, "reserved"),
    assets.openBookings(item.id, "checked_out"),
    item.assigneeId ? assets.person(item.assigneeId) : null,
    assets.location(item.locationId),
    item.imageKey ? assets.photoUrl(item.imageKey) : null,
    item.status === "assigned" ? assets.heldBy(item.id) : null,
  ]);
  const nextMaintenance = schedules.data?.items.find((s) => s.status === "active") ?? null;
  const bookings = [...(out.data?.items ?? []), ...(reserved.data?.items ?? [])].sort((a, b) =>
    a.startsAt.localeCompare(b.startsAt),
  );
  return {
    item,
    health: health.data ?? null,
    nextMaintenance,
    bookings,
    assigneeName: assignee?.data?.name ?? null,
    locationName: location.data?.name ?? null,
    photoUrl: photo?.data?.url ?? null,
    holds: held?.data?.items.length ?? 0,
  };
}

/** A deleted asset that had this tag (tags compare case-insensitively), if any. */
async function trashedWithTag(tag: string): Promise<Item | null> {
  const { data } = await assets.trashedByTag(tag);
  const lower = tag.toLowerCase();
  return data?.items.find((i) => i.deletedAt && i.uniqueTag.toLowerCase() === lower) ?? null;
}
