import type { TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import { ApiError } from "../../platform/errors";
import { emailMode, loadRecipients, workspaceDelivery } from "./delivery/recipients";
import { verifyUnsubscribe } from "./delivery/unsubscribe-token";
import { KIND_NAMES } from "./kinds";
import { setModes } from "./preferences";

/**
 * One-click unsubscribe (RFC 8058): the signed token names a recipient and a kind (or a digest,
 * which stops every kind that digest carries for them). Only that email stops; other kinds,
 * in-app notifications and chat are unchanged. Doing it twice is harmless.
 */
export async function unsubscribe(db: TenantDb, secret: string, tenantId: string, zone: string, token: string) {
  const claim = await verifyUnsubscribe(secret, tenantId, token);
  if (!claim) throw new ApiError("not_found", "This unsubscribe link is not valid for this workspace");
  let kinds: string[];
  if (claim.kind.startsWith("digest:")) {
    const period = claim.kind.slice("digest:".length);
    const [ws, { recipients, own }] = await Promise.all([
      workspaceDelivery(db),
      loadRecipients(db, [claim.recipientId], zone),
    ]);
    const r = recipients.get(claim.recipientId);
    kinds = r
      ? KIND_NAMES.filter((k) => emailMode({ ...r, active: true, email: r.email ?? "-" }, k, own, ws) === period)
      : [];
  } else kinds = [claim.kind];
  if (kinds.length)
    await commitWrite({ db, actor: claim.recipientId }, { writes: [setModes(db, claim.recipientId, kinds, "off")] });
  return { unsubscribed: true as const, kinds };
}
