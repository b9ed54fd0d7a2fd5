import type { agreements, agreementVersions, handoverReceipts, handovers } from "../../db/tenant/handovers";
import type { Agreement, Handover, Receipt } from "./schemas";

export type AgreementRow = typeof agreements.$inferSelect;
export type AgreementVersionRow = typeof agreementVersions.$inferSelect;
export type HandoverRow = typeof handovers.$inferSelect;
export type ReceiptRow = typeof handoverReceipts.$inferSelect;

export const toAgreement = (r: AgreementRow, body: string): Agreement => ({
  id: r.id,
  name: r.name,
  scope: r.scopeKind,
  scopeId: r.scopeId || null,
  requireReturnSignature: r.requireReturnSignature,
  version: r.currentVersion,
  body,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toAgreementVersion = (r: AgreementVersionRow) => ({
  id: r.id,
  agreementId: r.agreementId,
  version: r.version,
  body: r.body,
  createdAt: r.createdAt,
});

export const toHandover = (r: HandoverRow, agreementVersion: number | null = null): Handover => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  personId: r.personId,
  personName: r.personName,
  kitId: r.kitId,
  agreementId: r.agreementId,
  agreementVersionId: r.agreementVersionId,
  agreementVersion,
  items: r.items,
  dueBackAt: r.dueBackAt,
  method: r.method,
  signerName: r.signerName,
  hasSignatureImage: !!r.signatureKey,
  declineReason: r.declineReason,
  linkExpiresAt: r.linkNonce ? r.linkExpiresAt : null,
  receiptId: r.receiptId,
  createdAt: r.createdAt,
  decidedAt: r.decidedAt,
});

export const toReceipt = (r: ReceiptRow): Receipt => ({
  id: r.id,
  seq: r.seq,
  handoverId: r.handoverId,
  docSha256: r.docSha256,
  prevHash: r.prevHash,
  chainHash: r.chainHash,
  issuedAt: r.issuedAt,
});
