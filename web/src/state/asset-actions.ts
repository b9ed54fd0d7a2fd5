/**
 * What a person does to the asset on its page. Each verb calls one API route, reports the
 * outcome in `outcome` (the server's message when it refuses) and reloads the asset, so the page
 * shows the server's state, never a guess.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import { messageOf } from "../api/client";
import { asset, loadAsset } from "./asset";
import type { Choice } from "./choices";
import { clearHandoverOffer, offerHandover } from "./handover-offer";

export type Outcome = { tone: "ok" | "error"; message: string } | null;
export type ActionName = "checkOut" | "checkIn" | "move" | "report" | "book";

export const outcome = signal<Outcome>(null);
/** The action whose form is open (one at a time). */
export const openAction = signal<ActionName | null>(null);
export const busy = signal(false);

type Result = { error?: unknown; response: Response; data?: unknown };

async function run(tag: string, call: () => Promise<Result>, done: string, failed: string): Promise<boolean> {
  busy.value = true;
  outcome.value = null;
  clearHandoverOffer();
  try {
    const res = await call();
    if (!res.response.ok) {
      outcome.value = { tone: "error", message: messageOf(res.error, failed) };
      return false;
    }
    offerHandover(res.data);
    openAction.value = null;
    await loadAsset(tag, failed);
    outcome.value = { tone: "ok", message: done };
    return true;
  } catch {
    outcome.value = { tone: "error", message: failed };
    return false;
  } finally {
    busy.value = false;
  }
}

const itemId = () => (asset.value.status === "ready" ? asset.value.view.item.id : "");

export const checkOut = (tag: string, person: Choice, dueBackAt: string | undefined, done: string, failed: string) =>
  run(tag, () => assets.checkOut(itemId(), person.id, dueBackAt), done, failed);

export const checkIn = (tag: string, notes: string, cascade: boolean, done: string, failed: string) =>
  run(tag, () => assets.checkIn(itemId(), notes.trim() || undefined, cascade), done, failed);

export const move = (tag: string, location: Choice, done: string, failed: string) =>
  run(tag, () => assets.move(itemId(), location.id), done, failed);

export const book = (tag: string, person: Choice, startsAt: string, endsAt: string, done: string, failed: string) =>
  run(tag, () => assets.book(itemId(), person.id, startsAt, endsAt), done, failed);

export function report(tag: string, title: string, message: string, photo: Blob | null, done: string, failed: string) {
  return run(tag, () => assets.report(title, message, photo), done, failed);
}

export const quickCreate = (tag: string, name: string, done: string, failed: string) =>
  run(tag, () => assets.create(name.trim(), tag), done, failed);

/** Trash actions answer 200 with a result per item: an item's failure is the outcome. */
async function trashAction(tag: string, call: () => ReturnType<typeof assets.restore>, done: string, failed: string) {
  return run(
    tag,
    async () => {
      const res = await call();
      const first = res.data?.results[0];
      if (first?.status === "failed")
        return { error: { message: first.error?.message ?? failed }, response: new Response(null, { status: 409 }) };
      return res;
    },
    done,
    failed,
  );
}

export const restoreTrashed = (tag: string, id: string, done: string, failed: string) =>
  trashAction(tag, () => assets.restore(id), done, failed);

export const purgeTrashed = (tag: string, id: string, done: string, failed: string) =>
  trashAction(tag, () => assets.purge(id), done, failed);
