/**
 * The hand-over a checkout (or check-in) just recorded, waiting for the person's signature because
 * an agreement covers what moved (docs/handovers.md): the asset page and the batch scanner offer to
 * sign it now on this phone or to make a link. Cleared by the next action and when the page changes.
 */
import { signal } from "@preact/signals";
import { messageOf } from "../api/client";
import { createLink } from "../api/handovers";

export const pendingHandover = signal<{ id: string } | null>(null);
/** The signing link made for it (shown once), or why it could not be made. */
export const handoverLink = signal<{ url: string; expiresAt: string } | null>(null);
export const handoverLinkError = signal<string | null>(null);
export const linkBusy = signal(false);

type Pending = { id: string; state: string } | null | undefined;

/**
 * Offers the first pending hand-over a custody answer names (`handover`, or `handovers` of a bulk
 * or kit answer), or nothing.
 */
export function offerHandover(data: unknown): void {
  const answer = data as { handover?: Pending; handovers?: Pending[] } | undefined;
  const pending = [answer?.handover, ...(answer?.handovers ?? [])].find((h) => h?.state === "pending_acceptance");
  pendingHandover.value = pending ? { id: pending.id } : null;
}

export function clearHandoverOffer(): void {
  pendingHandover.value = null;
  handoverLink.value = null;
  handoverLinkError.value = null;
}

/** POST /handovers/{id}/link for the pending hand-over: the person signs from their own device. */
export async function sendHandoverLink(failed: string): Promise<void> {
  const pending = pendingHandover.value;
  if (!pending) return;
  linkBusy.value = true;
  handoverLinkError.value = null;
  try {
    const res = await createLink(pending.id);
    if (res.data) handoverLink.value = res.data;
    else handoverLinkError.value = messageOf(res.error, failed);
  } catch {
    handoverLinkError.value = failed;
  } finally {
    linkBusy.value = false;
  }
}
