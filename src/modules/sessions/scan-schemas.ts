import { z } from "@hono/zod-openapi";
import { SCAN_CONDITIONS, SCAN_RESULTS, SESSION_STATUSES } from "../../db/tenant/sessions";
import { isoInstant } from "../../platform/schemas";

export const MAX_CODE_LENGTH = 512;
export const MAX_BATCH = 500;

const target = {
  itemId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "The asset id. Give either itemId or code.", example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
  code: z.string().trim().min(1).max(MAX_CODE_LENGTH).optional().openapi({
    description:
      "What the scanner read: a unique tag, an asset id, or an asset URL `https://<workspace>.<domain>/a/<uniqueTag>`.",
    example: "https://acme.example.com/a/LAP-0042",
  }),
};
const oneTarget = (b: { itemId?: string; code?: string }) => (b.itemId === undefined) !== (b.code === undefined);
const oneTargetMessage = { message: "give exactly one of itemId or code", path: ["itemId"] };

const scanFields = {
  ...target,
  allowMarkAnyway: z.boolean().optional().openapi({
    description: "Accept an asset recorded outside a location-scoped session's scope (else `wrong_location`).",
  }),
  allowRescan: z.boolean().optional().openapi({
    description: "Re-record an already scanned item (the previous record is superseded) instead of `already_scanned`.",
  }),
  scanId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, "1-100 letters, digits, '.', '_', ':' or '-'")
    .optional()
    .openapi({
      description:
        "Client-generated id of this scan. A scan sent again with the same scanId (an offline replay, a retry) gets the first answer back and changes nothing.",
      example: "phone-7f3a:000123",
    }),
  scannedAt: isoInstant.optional().openapi({
    description:
      "When the scan happened on the device (offline scans); default: when it arrives. At most 5 minutes ahead of the server clock.",
  }),
  condition: z.enum(SCAN_CONDITIONS).optional(),
  comment: z.string().trim().max(1000).optional(),
  photoKeys: z
    .array(z.string().min(1).max(512))
    .max(10)
    .optional()
    .openapi({ description: "Object keys of photos uploaded through POST /objects (this workspace's keys only)." }),
};

export const ScanBody = z.strictObject(scanFields).refine(oneTarget, oneTargetMessage).openapi("ScanRequest");
export type ScanInput = z.infer<typeof ScanBody>;

export const ScanBatchBody = z
  .strictObject({
    scans: z
      .array(z.strictObject(scanFields).refine(oneTarget, oneTargetMessage))
      .min(1)
      .max(MAX_BATCH)
      .openapi({ description: `1..${MAX_BATCH} scans, applied in scannedAt order.` }),
  })
  .openapi("ScanBatchRequest");

export const UnscanBody = z.strictObject(target).refine(oneTarget, oneTargetMessage).openapi("UnscanRequest");

const ItemView = z.object({
  id: z.string(),
  name: z.string(),
  uniqueTag: z.string(),
  locationId: z.string(),
  categoryId: z.string(),
  scannedAt: z.string().nullable(),
  scannedBy: z.string().nullable(),
});

export const ProgressSchema = z
  .object({ scanned: z.number().int(), total: z.number().int(), missing: z.number().int(), found: z.number().int() })
  .openapi("SessionProgress");

const outcomeFields = {
  result: z.enum(SCAN_RESULTS),
  reason: z.enum(["unknown_code", "not_expected", "excluded", "outside_scope"]).nullable().openapi({
    description:
      "Why not accepted: `unknown_code` (matches no asset), `not_expected` (not in the expected set), `excluded`, `outside_scope` (wrong_location).",
  }),
  scanId: z
    .string()
    .nullable()
    .openapi({ description: "Server id of the stored scan record (null for a duplicate that was only counted)." }),
  clientScanId: z.string().nullable(),
  replayed: z.boolean().openapi({ description: "The scanId was seen before: this is the first answer again." }),
  rescan: z.boolean(),
  item: ItemView.nullable(),
};

export const ScanOutcomeSchema = z.object({ ...outcomeFields, progress: ProgressSchema }).openapi("ScanOutcome");
export const ScanBatchResponse = z
  .object({ results: z.array(z.object({ index: z.number().int(), ...outcomeFields })), progress: ProgressSchema })
  .openapi("ScanBatchResult");

export const UnscanResponse = z
  .object({ itemId: z.string(), removed: z.boolean(), progress: ProgressSchema })
  .openapi("UnscanResult");

export const MobileSchema = z
  .object({
    session: z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(SESSION_STATUSES),
      dueAt: z.string().nullable(),
      location: z.object({ id: z.string(), name: z.string() }).nullable(),
      includeSubLocations: z.boolean(),
      categoryId: z.string().nullable(),
      startedAt: z.string().nullable(),
    }),
    progress: ProgressSchema,
    recentScans: z.array(
      z.object({
        scanId: z.string(),
        itemId: z.string().nullable(),
        name: z.string().nullable(),
        uniqueTag: z.string().nullable(),
        code: z.string().nullable(),
        result: z.enum(SCAN_RESULTS),
        reason: z.string().nullable(),
        scannedAt: z.string(),
        scannedBy: z.string(),
        unscanned: z.boolean(),
      }),
    ),
  })
  .openapi("SessionMobile");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type ScanOutcome = z.infer<typeof ScanOutcomeSchema>;
export type ScanBatchResult = z.infer<typeof ScanBatchResponse>;
export type UnscanResult = z.infer<typeof UnscanResponse>;
export type SessionMobile = z.infer<typeof MobileSchema>;
