import { z } from "@hono/zod-openapi";
import { CODE_HOLDER_KINDS, CODE_STATUSES, SYMBOLOGIES } from "../../db/tenant/labels";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField, nullableRef } from "../../platform/schemas";
import { updatedSinceParam } from "../../platform/sync";
import { MAX_CODE_LENGTH } from "./symbols";

export const symbology = z.enum(SYMBOLOGIES).openapi({
  description:
    "`qr`, `datamatrix`, `code128`, `code39` (digits, upper-case A-Z, space, `- . $ / + %`), `ean13` (12 digits, or 13 with the check digit), `upca` (11, or 12).",
});
const holderKind = z.enum(CODE_HOLDER_KINDS);

const HolderRef = z.object({
  kind: holderKind,
  id: z.string().openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
  name: z.string(),
});

export const CodeSchema = z
  .object({
    id: z.string().openapi({ example: "cod_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    value: z.string().openapi({ example: "4006381333931" }),
    symbology,
    status: z.enum(CODE_STATUSES).openapi({
      description: "`reserved`: printed ahead, on nothing yet; `active`: on its holder; `void`: withdrawn.",
    }),
    holder: HolderRef.nullable(),
    batchId: z.string().nullable(),
    createdAt: z.string(),
    claimedAt: z.string().nullable(),
    voidedAt: z.string().nullable(),
    updatedAt: z.string().openapi({ description: "Its last change; the order of the sync list (`updatedSince`)." }),
  })
  .openapi("Code");

const value = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_CODE_LENGTH, `at most ${MAX_CODE_LENGTH} characters`);

export const HolderInput = z.strictObject({ kind: holderKind, id: z.string().min(1).max(64) });

export const AttachCodeBody = z.strictObject({ value, symbology, holder: HolderInput }).openapi("AttachCode");

export const ClaimCodeBody = z.strictObject({ holder: HolderInput }).openapi("ClaimCode");

export const ListCodesQuery = z.object({
  ...pageQuery,
  status: z.enum(CODE_STATUSES).optional().openapi({ description: "`reserved` lists the unclaimed codes." }),
  holderKind: holderKind.optional(),
  holderId: z.string().max(64).optional(),
  batchId: z.string().max(64).optional(),
  updatedSince: updatedSinceParam.openapi({
    description:
      "Sync: codes changed (attached, reserved, claimed, voided) at or after this time, voided ones included, ordered by updatedAt then id (oldest first) so a client can resume.",
  }),
});
export const CodePage = pageOf(CodeSchema, "CodePage");

export const CodeLookupSchema = z
  .object({
    value: z.string(),
    matchedBy: z
      .enum(["tag", "code"])
      .openapi({ description: "`tag`: the holder's own tag; `code`: one of its codes." }),
    status: z.enum(CODE_STATUSES).openapi({ description: "`active` for a tag; `reserved` for an unclaimed code." }),
    holder: HolderRef.extend({ tag: z.string().nullable() }).nullable(),
    code: nullableRef(CodeSchema),
  })
  .openapi("CodeLookup");

export const MAX_BATCH = 1000;

export const ReserveBatchBody = z
  .strictObject({
    name: nameField,
    symbology,
    prefix: z
      .string()
      .max(32)
      .optional()
      .openapi({ example: "AST-", description: "With `count`: the values are prefix + a zero-padded sequence." }),
    start: z
      .number()
      .int()
      .min(0)
      .max(999_999_999)
      .optional()
      .openapi({ description: "The first number (default 1)." }),
    digits: z
      .number()
      .int()
      .min(1)
      .max(12)
      .optional()
      .openapi({ description: "Zero-padded to this many digits (default 5)." }),
    count: z.number().int().min(1).max(MAX_BATCH).optional(),
    values: z
      .array(value)
      .min(1)
      .max(MAX_BATCH)
      .optional()
      .openapi({ description: "Imported values, instead of prefix and count." }),
  })
  .openapi("ReserveTagBatch");

export const TagBatchSchema = z
  .object({
    id: z.string().openapi({ example: "tgb_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    symbology,
    count: z.number().int(),
    createdAt: z.string(),
    values: z.array(z.string()).optional().openapi({ description: "The reserved values, in order (on create only)." }),
  })
  .openapi("TagBatch");

export const labelWebhookResources = { code: CodeSchema, tagBatch: TagBatchSchema } satisfies WebhookResources;
