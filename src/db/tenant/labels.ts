import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The symbologies a code can be printed in (docs/labels.md#symbologies). */
export const SYMBOLOGIES = ["qr", "datamatrix", "code128", "code39", "ean13", "upca"] as const;
export type Symbology = (typeof SYMBOLOGIES)[number];

/** What a code can be on. */
export const CODE_HOLDER_KINDS = ["asset", "kit", "location", "stockItem"] as const;
export type CodeHolderKind = (typeof CODE_HOLDER_KINDS)[number];

/** `reserved`: printed ahead, on nothing yet; `active`: on a holder; `void`: withdrawn, never scans again. */
export const CODE_STATUSES = ["reserved", "active", "void"] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

/**
 * A code printed on a thing besides its tag. The value is unique in the workspace whatever its
 * symbology (case-insensitively, as tags are), among codes that are not void: the partial unique
 * index is what makes a claim or an attach exactly-once under races.
 */
export const codes = sqliteTable(
  "codes",
  {
    id: text("id").primaryKey(),
    value: text("value").notNull(),
    valueLc: text("value_lc").notNull(),
    symbology: text("symbology", { enum: SYMBOLOGIES }).notNull(),
    status: text("status", { enum: CODE_STATUSES }).notNull(),
    holderKind: text("holder_kind", { enum: CODE_HOLDER_KINDS }),
    holderId: text("holder_id"),
    /** The tag batch it was reserved in; null for a code attached directly. */
    batchId: text("batch_id"),
    createdAt: text("created_at").notNull(),
    claimedAt: text("claimed_at"),
    claimedBy: text("claimed_by"),
    voidedAt: text("voided_at"),
    /** Its last change (attached, reserved, claimed, voided): the order of the sync list (`updatedSince`). */
    updatedAt: text("updated_at").notNull().default("1970-01-01T00:00:00.000Z"),
  },
  (t) => [
    uniqueIndex("codes_value_live_uq").on(t.valueLc).where(sql`status <> 'void'`),
    index("codes_updated_idx").on(t.updatedAt, t.id),
    index("codes_holder_idx").on(t.holderKind, t.holderId),
    index("codes_status_idx").on(t.status, t.id),
    index("codes_batch_idx").on(t.batchId, t.id),
  ],
);

/** A batch of tag codes reserved ahead of the equipment (a prefix and a sequence, or imported values). */
export const tagBatches = sqliteTable("tag_batches", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  symbology: text("symbology", { enum: SYMBOLOGIES }).notNull(),
  count: integer("count").notNull(),
  createdAt: text("created_at").notNull(),
  createdBy: text("created_by"),
});

/** A label template: the stock, the code and the fields (docs/labels.md#templates); `spec` is the JSON shape. */
export const labelTemplates = sqliteTable(
  "label_templates",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    spec: text("spec", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("label_templates_name_uq").on(sql`lower(${t.name})`)],
);
