import { eq, sql } from "drizzle-orm";
import { handovers } from "../../db/tenant/handovers";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { randomToken } from "../../platform/crypto";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { assertSignedUrl, signFields } from "../../platform/signed-urls";
import { requireHandover } from "./read";
import type { HandoverRow } from "./view";

/**
 * A hand-over link: `<handoverId>.<nonce>.<exp>.<signature>`, signed by the Worker (the signed-URL
 * HMAC, over the workspace, hand-over, nonce and expiry). Single use: the hand-over keeps the live
 * link's nonce, a new link replaces it, and a decision clears it.
 */
const fieldsOf = (tenantId: string, id: string, nonce: string, exp: number) => ({
  method: "GET" as const,
  key: `handover-link/${tenantId}/${id}/${nonce}`,
  exp,
  purpose: "handover-link",
});

export async function createLink(ctx: ServiceCtx, secret: string, id: string, hours: number) {
  const row = await requireHandover(ctx, id);
  if (row.state !== "pending_acceptance") throw conflict("The hand-over was already accepted or declined");
  const nonce = randomToken(16);
  const exp = Math.floor(Date.now() / 1000) + hours * 3600;
  const expiresAt = new Date(exp * 1000).toISOString();
  const token = `${id}.${nonce}.${exp}.${await signFields(secret, fieldsOf(ctx.tenantId, id, nonce, exp))}`;
  const now = nowIso();
  await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(
          ctx.db,
          "handover_pending",
          sql`EXISTS (SELECT 1 FROM ${handovers} WHERE ${handovers.id} = ${id} AND ${handovers.state} = 'pending_acceptance')`,
        ),
      ],
      writes: [
        ctx.db.update(handovers).set({ linkNonce: nonce, linkExpiresAt: expiresAt }).where(eq(handovers.id, id)),
      ],
      audits: [
        {
          entityType: "handover",
          entityId: id,
          action: "link",
          actor: ctx.actor,
          at: now,
          after: { linkExpiresAt: expiresAt },
        },
      ],
    },
    (err) => {
      if (guardFailed(err, "handover_pending")) throw conflict("The hand-over was already accepted or declined");
      throw err;
    },
  );
  return { token, expiresAt };
}

/**
 * The hand-over a link names, if the link is genuine, unexpired and still the live one: 403
 * (`details.reason` `invalid_signature` or `expired`) or 409 (used or replaced) otherwise.
 */
export async function resolveLink(
  ctx: ServiceCtx,
  secret: string,
  token: string,
): Promise<{ row: HandoverRow; nonce: string }> {
  const [id, nonce, expText, signature] = token.split(".");
  const exp = Number(expText);
  if (!id || !nonce) throw notFound("Hand-over link");
  await assertSignedUrl(secret, fieldsOf(ctx.tenantId, id, nonce, exp), signature);
  const row = await requireHandover(ctx, id);
  if (row.state !== "pending_acceptance")
    throw conflict(`This hand-over was already ${row.state}; the link is used up`);
  if (row.linkNonce !== nonce) throw conflict("This link was replaced by a newer one");
  return { row, nonce };
}
