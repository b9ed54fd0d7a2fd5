import { and, eq, sql } from "drizzle-orm";
import { assetTimeline } from "../../db/tenant/assets";
import { agreements, agreementVersions, type HandoverMethod, handovers } from "../../db/tenant/handovers";
import { changedRows, commitWrite, ifChanged, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { sha256Hex } from "../../platform/crypto";
import { batchGuard, guardFailed, insertJsonRows } from "../../platform/d1-write";
import { ApiError, conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { timelineRow } from "../assets";
import { commitReceipt, sha256Bytes } from "./chain";
import { receiptPdf } from "./receipt-pdf";
import { renderAgreement } from "./render";
import { SIGNATURE_MAX_BYTES } from "./schemas";
import { type HandoverRow, type ReceiptRow, toHandover, toReceipt } from "./view";

export interface Decision {
  method: HandoverMethod;
  signerName: string;
  signaturePng?: string;
  signedAt?: string;
  /** A link's nonce: the decision holds only while the link is still the live one (single use). */
  linkNonce?: string;
}

/** The agreement version a hand-over was made with, filled in as the person reads it, and its SHA-256. */
export async function agreementOf(ctx: ServiceCtx, row: HandoverRow) {
  if (!row.agreementVersionId) return null;
  const v = await ctx.db
    .select({ body: agreementVersions.body, version: agreementVersions.version, name: agreements.name })
    .from(agreementVersions)
    .innerJoin(agreements, eq(agreements.id, agreementVersions.agreementId))
    .where(eq(agreementVersions.id, row.agreementVersionId))
    .get();
  if (!v) return null;
  const text = renderAgreement(v.body, { ...row, at: row.createdAt });
  return { name: v.name, version: v.version, text, sha256: await sha256Hex(text) };
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A drawn signature: a PNG as base64 or a data URL, within its size limit; anything else is a 400. */
export function decodeSignature(value: string): Uint8Array {
  const b64 = value.replace(/^data:image\/png;base64,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw invalidField("body.signaturePng", "must be a base64 PNG");
  const bin = atob(b64);
  if (bin.length > SIGNATURE_MAX_BYTES) throw invalidField("body.signaturePng", "the signature image is over 256 KiB");
  const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  if (!PNG_MAGIC.every((b, i) => bytes[i] === b)) throw invalidField("body.signaturePng", "must be a PNG image");
  return bytes;
}

function signedAtOf(value: string | undefined, now: string): string {
  if (!value) return now;
  const at = new Date(value).toISOString();
  if (at > now) throw invalidField("body.signedAt", "must not be in the future");
  if (Date.parse(now) - Date.parse(at) > 7 * 86_400_000)
    throw invalidField("body.signedAt", "must be within the last 7 days");
  return at;
}

const pendingGuard = (ctx: ServiceCtx, id: string, nonce?: string) =>
  batchGuard(
    ctx.db,
    "handover_pending",
    nonce
      ? sql`EXISTS (SELECT 1 FROM ${handovers} WHERE ${handovers.id} = ${id} AND ${handovers.state} = 'pending_acceptance' AND ${handovers.linkNonce} = ${nonce})`
      : sql`EXISTS (SELECT 1 FROM ${handovers} WHERE ${handovers.id} = ${id} AND ${handovers.state} = 'pending_acceptance')`,
  );

const alreadyDecided = () => conflict("The hand-over was already accepted or declined");

/**
 * Accepts a hand-over and issues its receipt, in one batch: the state move (guarded on it still
 * pending and, for a link, on the link still being the live one), the receipt row in the chain,
 * the timeline entry of every item, the audit and the events. The signature image and the PDF are
 * stored in R2 first (an accepted hand-over never lacks its receipt; a lost race leaves only an
 * unreferenced object).
 */
export async function acceptHandover(ctx: ServiceCtx, row: HandoverRow, d: Decision) {
  if (row.state !== "pending_acceptance") throw alreadyDecided();
  return sign(ctx, row, d, { guards: [pendingGuard(ctx, row.id, d.linkNonce)] });
}

/** A hand-over recorded as accepted at once (a return the workspace records): inserted and receipted in one batch. */
export async function recordHandover(ctx: ServiceCtx, row: HandoverRow, d: Decision) {
  return sign(ctx, row, d, { writes: [ctx.db.insert(handovers).values({ ...row, state: "pending_acceptance" })] });
}

async function sign(ctx: ServiceCtx, row: HandoverRow, d: Decision, around: Write) {
  const files = ctx.files;
  if (!files) throw new ApiError("service_unavailable", "Receipt storage is not configured");
  const now = nowIso();
  const signedAt = signedAtOf(d.signedAt, now);
  const png = d.signaturePng ? decodeSignature(d.signaturePng) : null;
  const receiptId = newId("receipt");
  const agreement = await agreementOf(ctx, row);
  let pdf: Uint8Array;
  try {
    pdf = await receiptPdf({
      receiptId,
      handoverId: row.id,
      kind: row.kind,
      workspace: ctx.tenantId,
      personName: row.personName,
      items: row.items,
      agreement,
      handedOverAt: row.createdAt,
      signedAt,
      method: d.method,
      signerName: d.signerName,
      signaturePng: png,
      issuedAt: now,
    });
  } catch (err) {
    if (png) throw invalidField("body.signaturePng", "is not a readable PNG image");
    throw err;
  }
  const base = `tenants/${ctx.tenantId}/handovers/${row.id}`;
  const signatureKey = png ? `${base}/signature.png` : null;
  if (png && signatureKey) await files.put(signatureKey, png, { httpMetadata: { contentType: "image/png" } });
  const objectKey = `${base}/receipt-${receiptId}.pdf`;
  await files.put(objectKey, pdf, { httpMetadata: { contentType: "application/pdf" } });
  const docSha256 = await sha256Bytes(pdf);
  const decided: HandoverRow = {
    ...row,
    state: "accepted",
    method: d.method,
    signerName: d.signerName,
    signatureKey,
    decidedAt: signedAt,
    receiptId,
    linkNonce: null,
    linkExpiresAt: null,
  };
  const view = toHandover(decided, agreement?.version ?? null);
  const receipt = await commitReceipt(
    ctx,
    { id: receiptId, handoverId: row.id, docSha256, objectKey, issuedAt: now },
    (r: ReceiptRow) =>
      joinWrites(around, {
        writes: [
          ctx.db
            .update(handovers)
            .set({
              state: "accepted",
              method: d.method,
              signerName: d.signerName,
              signatureKey,
              decidedAt: signedAt,
              receiptId,
              linkNonce: null,
            })
            .where(eq(handovers.id, row.id)),
          insertJsonRows(
            ctx.db,
            assetTimeline,
            row.items.map((i) =>
              timelineRow({
                assetId: i.assetId,
                type: "HANDOVER_ACCEPTED",
                actor: ctx.actor,
                at: now,
                data: { handoverId: row.id, receiptId, kind: row.kind, method: d.method, signerName: d.signerName },
              }),
            ),
          ),
        ],
        audits: [
          {
            entityType: "handover",
            entityId: row.id,
            action: "accept",
            actor: ctx.actor,
            at: now,
            before: toHandover(row),
            after: view,
          },
        ],
        events: [
          { type: "handover.accepted", subjectId: row.id, payload: view },
          { type: "handover.receipt_issued", subjectId: r.id, payload: toReceipt(r) },
        ],
      }),
    (err) => {
      if (guardFailed(err, "handover_pending")) throw alreadyDecided();
      throw err;
    },
  );
  return { handover: view, receipt: toReceipt(receipt) };
}

/** Declines a hand-over with a reason (by link): the items stay where they are; the decline is the record. */
export async function declineHandover(ctx: ServiceCtx, row: HandoverRow, reason: string, linkNonce?: string) {
  if (row.state !== "pending_acceptance") throw alreadyDecided();
  const now = nowIso();
  const decided: HandoverRow = {
    ...row,
    state: "declined",
    declineReason: reason,
    decidedAt: now,
    method: "link",
    linkNonce: null,
  };
  const view = toHandover(decided);
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(handovers)
          .set({ state: "declined", declineReason: reason, decidedAt: now, method: "link", linkNonce: null })
          .where(
            and(
              eq(handovers.id, row.id),
              eq(handovers.state, "pending_acceptance"),
              linkNonce ? eq(handovers.linkNonce, linkNonce) : undefined,
            ),
          ),
        { type: "handover.declined", subjectId: row.id, payload: view },
      ),
      {
        // Timeline rows only if the decline itself changed the row (a lost race writes nothing).
        derived: [
          ctx.db.insert(assetTimeline).select(
            sql`SELECT json_extract(t.value, '$.id'), json_extract(t.value, '$.assetId'), 'HANDOVER_DECLINED', ${now}, ${ctx.actor}, json_extract(t.value, '$.data')
                FROM json_each(${JSON.stringify(
                  row.items.map((i) =>
                    timelineRow({
                      assetId: i.assetId,
                      type: "HANDOVER_DECLINED",
                      actor: ctx.actor,
                      at: now,
                      data: { handoverId: row.id, reason },
                    }),
                  ),
                )}) t
                WHERE (SELECT ${handovers.state} FROM ${handovers} WHERE ${handovers.id} = ${row.id}) = 'declined'
                  AND (SELECT ${handovers.decidedAt} FROM ${handovers} WHERE ${handovers.id} = ${row.id}) = ${now}`,
          ),
        ],
      },
    ),
  );
  if (changedRows(done) === 0) throw alreadyDecided();
  return view;
}
