/**
 * What a person does to the asset on its page. Each verb calls one API route, reports the
 * outcome in `outcome` (the server's message when it refuses) and reloads the asset, so the page
 * shows the server's state, never a guess.
 */
import { signal } from "@preact/signals";
import * as assets from "../api/assets";
import { createLink } from "../api/handovers";
import { messageOf } from "../api/client";
import { asset, loadAsset } from "./asset";
import type { Choice } from "./choices";

export type Outcome = { tone: "ok" | "error"; message: string } | null;
export type ActionName = "checkOut" | "checkIn" | "move" | "report" | "book";

export const outcome = signal<Outcome>(null);
/**
 * The hand-over the last checkout (or check-in) recorded, waiting for the person's signature
 * because an agreement covers the asset (docs/handovers.md): the page offers to sign it now or
 * send a link. Cleared by the next action and when the page changes.
 */
export const pendingHandover = signal<{ id: string } | null>(null);
/** The signing link made for it (shown once), or why it could not be made. */
export const handoverLink = signal<{ url: string; expiresAt: string } | null>(null);
export const handoverLinkError = signal<string | null>(null);

/** POST /handovers/{id}/link for the pending hand-over: the person signs from their own device. */
export async function sendHandoverLink(failed: string): Promise<void> {
  const pending = pendingHandover.value;
  if (!pending) return;
  busy.value = true;
  handoverLinkError.value = null;
  try {
    const res = await createLink(pending.id);
    if (res.data) handoverLink.value = res.data;
    else handoverLinkError.value = messageOf(res.error, failed);
  } catch {
    handoverLinkError.value = failed;
  } finally {
    busy.value = false;
  }
}
/** The action whose form is open (one at a time). */
export const openAction = signal<ActionName | null>(null);
export const busy = signal(false);

type Result = { error?: unknown; response: Response; data?: unknown };

/** The pending hand-over a custody answer names (`handover`), if any. */
const handoverOf = (data: unknown) => {
  const h = (data as { handover?: { id: string; state: string } | null } | undefined)?.handover;
  return h?.state === "pending_acceptance" ? { id: h.id } : null;
};

async function run(tag: string, call: () => Promise<Result>, done: string, failed: string): Promise<boolean> {
  busy.value = true;
  outcome.value = null;
  pendingHandover.value = null;
  handoverLink.value = null;
  handoverLinkError.value = null;
  try {
    const res = await call();
    if (!res.response.ok) {
      outcome.value = { tone: "error", message: messageOf(res.error, failed) };
      return false;
    }
    pendingHandover.value = handoverOf(res.data);
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
