import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Where an agreement applies: every hand-over of the workspace, of a category's assets, or of a kit. */
export const AGREEMENT_SCOPES = ["workspace", "category", "kit"] as const;
export type AgreementScope = (typeof AGREEMENT_SCOPES)[number];

/**
 * An agreement template (docs/handovers.md). Its text lives in versions: an edit of the text makes
 * a new version, and a hand-over keeps the version it was made with.
 */
export const agreements = sqliteTable(
  "agreements",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    scopeKind: text("scope_kind", { enum: AGREEMENT_SCOPES }).notNull(),
    /** The category or kit id; '' for the workspace (so the unique index below holds for it too). */
    scopeId: text("scope_id").notNull().default(""),
    /** A return (check-in) of what it covers needs a signature too. */
    requireReturnSignature: integer("require_return_signature", { mode: "boolean" }).notNull().default(false),
    currentVersion: integer("current_version").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // One live agreement per scope: which text applies is never a guess.
    uniqueIndex("agreements_scope_uq").on(t.scopeKind, t.scopeId).where(sql`deleted_at IS NULL`),
    index("agreements_name_idx").on(t.name, t.id),
  ],
);

export const agreementVersions = sqliteTable(
  "agreement_versions",
  {
    id: text("id").primaryKey(),
    agreementId: text("agreement_id").notNull(),
    version: integer("version").notNull(),
    /** Markdown with fields {{person}}, {{items}}, {{date}}, {{dueBack}}. */
    body: text("body").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [uniqueIndex("agreement_versions_uq").on(t.agreementId, t.version)],
);

export const HANDOVER_KINDS = ["checkout", "return"] as const;
export const HANDOVER_STATES = ["pending_acceptance", "accepted", "declined"] as const;
export const HANDOVER_METHODS = ["in_person", "link", "recorded"] as const;
export type HandoverState = (typeof HANDOVER_STATES)[number];
export type HandoverMethod = (typeof HANDOVER_METHODS)[number];

/** One item as it was handed over (its tag and serial then, for the receipt). */
export interface HandoverItem {
  assetId: string;
  name: string;
  tag: string | null;
  serial: string | null;
}

/** A hand-over: everything given to (or taken back from) one person together, and its acceptance. */
export const handovers = sqliteTable(
  "handovers",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: HANDOVER_KINDS }).notNull(),
    state: text("state", { enum: HANDOVER_STATES }).notNull(),
    personId: text("person_id").notNull(),
    personName: text("person_name").notNull(),
    kitId: text("kit_id"),
    agreementId: text("agreement_id"),
    agreementVersionId: text("agreement_version_id"),
    items: text("items", { mode: "json" }).$type<HandoverItem[]>().notNull(),
    dueBackAt: text("due_back_at"),
    method: text("method", { enum: HANDOVER_METHODS }),
    signerName: text("signer_name"),
    /** R2 key of the drawn signature (PNG), when one was drawn. */
    signatureKey: text("signature_key"),
    declineReason: text("decline_reason"),
    /** The live link's nonce: a new link replaces it, a decision clears it (single use). */
    linkNonce: text("link_nonce"),
    linkExpiresAt: text("link_expires_at"),
    receiptId: text("receipt_id"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
    decidedAt: text("decided_at"),
  },
  (t) => [index("handovers_person_idx").on(t.personId, t.id), index("handovers_state_idx").on(t.state, t.id)],
);

/**
 * A receipt: a PDF in R2 and its place in the workspace's hash chain. `chainHash` is the SHA-256
 * of (seq, prevHash, docSha256, handoverId, issuedAt); the next receipt stores it as `prevHash`.
 * The unique indexes on seq and prevHash make a fork impossible even if a guard were bypassed.
 */
export const handoverReceipts = sqliteTable(
  "handover_receipts",
  {
    id: text("id").primaryKey(),
    seq: integer("seq").notNull(),
    handoverId: text("handover_id").notNull(),
    prevHash: text("prev_hash").notNull(),
    docSha256: text("doc_sha256").notNull(),
    chainHash: text("chain_hash").notNull(),
    objectKey: text("object_key").notNull(),
    issuedAt: text("issued_at").notNull(),
  },
  (t) => [
    uniqueIndex("handover_receipts_seq_uq").on(t.seq),
    uniqueIndex("handover_receipts_prev_uq").on(t.prevHash),
    uniqueIndex("handover_receipts_handover_uq").on(t.handoverId),
  ],
);
