/**
 * The kit and location pages (`/k/<id>`, `/l/<id>`): what a kit holds and what is recorded at a
 * location, each asset linking to its own page. The server's answer is what is shown.
 */
import { signal } from "@preact/signals";
import { messageOf } from "../api/client";
import * as places from "../api/places";
import { mapBounded } from "./bounded";

export type Member = { id: string; name: string; uniqueTag: string };
export type PlaceView = { kind: "kit" | "location"; name: string; detail: string | null; members: Member[] };
export type PlaceState =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "error"; message: string }
  | { status: "ready"; view: PlaceView };

export const place = signal<PlaceState>({ status: "loading" });

const set = (state: PlaceState) => {
  place.value = state;
};

const member = (a: Member): Member => ({ id: a.id, name: a.name, uniqueTag: a.uniqueTag });

export async function loadPlace(kind: "kit" | "location", id: string, unreachable: string): Promise<void> {
  place.value = { status: "loading" };
  try {
    if (kind === "kit") {
      const { data, error, response } = await places.kit(id);
      if (response.status === 404) return set({ status: "missing" });
      if (!data) return set({ status: "error", message: messageOf(error, unreachable) });
      // A kit names its assets by id: read each (a few at a time; kits are small).
      const members = await mapBounded(data.assetIds, 4, async (assetId) => (await places.asset(assetId)).data);
      place.value = {
        status: "ready",
        view: { kind, name: data.name, detail: data.description, members: members.filter((m) => !!m).map(member) },
      };
      return;
    }
    const { data, error, response } = await places.location(id);
    if (response.status === 404) return set({ status: "missing" });
    if (!data) return set({ status: "error", message: messageOf(error, unreachable) });
    const here = await places.assetsAt(id);
    place.value = {
      status: "ready",
      view: { kind, name: data.name, detail: null, members: (here.data?.items ?? []).map(member) },
    };
  } catch {
    place.value = { status: "error", message: unreachable };
  }
}
