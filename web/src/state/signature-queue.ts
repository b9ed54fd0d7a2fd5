/**
 * Signatures taken on the phone go through a queue (docs/handovers.md "Offline"): written to the
 * signed-in user's IndexedDB first, then sent; they leave the queue only when the server answered.
 * One entry per hand-over, and the server accepts a hand-over once (a second send is a 409, which
 * settles the entry too), so a signature replayed after a lost answer or a reload counts once.
 */
import { signal } from "@preact/signals";
import { acceptHandover } from "../api/handovers";
import { currentOwner, dequeueSignature, enqueueSignature, queuedSignatures } from "../platform/offline-db";

export const pendingSignatures = signal(0);

let replaying: Promise<void> | null = null;

async function count() {
  pendingSignatures.value = (await queuedSignatures().catch(() => [])).length;
}

/** Queues a signature and tries to send it at once (it waits in the queue while offline). */
export async function sign(handoverId: string, signerName: string, signaturePng?: string): Promise<void> {
  const by = currentOwner()?.userId;
  if (!by) throw new Error("nobody is signed in");
  await enqueueSignature({
    handoverId,
    by,
    signerName,
    signedAt: new Date().toISOString(),
    ...(signaturePng ? { signaturePng } : {}),
  });
  await count();
  await replaySignatures();
}

/** Sends what the queue holds, one replay at a time; stops quietly when offline. */
export function replaySignatures(): Promise<void> {
  replaying ??= (async () => {
    try {
      for (const s of await queuedSignatures()) {
        const { signaturePng, signerName, signedAt } = s;
        const { response } = await acceptHandover(
          s.handoverId,
          { signerName, signedAt, ...(signaturePng ? { signaturePng } : {}) },
          s.by,
        );
        // Answered: accepted now, or already (an earlier send's answer was lost), or refused for good.
        if ([200, 400, 404, 409].includes(response.status)) await dequeueSignature(s.handoverId);
      }
    } catch {
      // Offline, or someone else signed in: the rest waits for the next time.
    } finally {
      replaying = null;
      await count();
    }
  })();
  return replaying;
}

/** Whether a hand-over's signature is still waiting on this phone. */
export async function isQueued(handoverId: string): Promise<boolean> {
  return (await queuedSignatures().catch(() => [])).some((s) => s.handoverId === handoverId);
}

window.addEventListener("online", () => void replaySignatures());
