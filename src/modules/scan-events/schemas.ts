import { z } from "@hono/zod-openapi";
import { SCAN_RESULTS, SESSION_STATUSES } from "../../db/tenant/sessions";
import { pageOf } from "../../platform/pagination";

const Place = z.object({ id: z.string(), name: z.string().nullable() }).nullable();

export const ScanRecordSchema = z
  .object({
    id: z.string().openapi({ example: "scn_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    result: z.enum(SCAN_RESULTS),
    reason: z.string().nullable(),
    scannedAt: z.string(),
    receivedAt: z.string(),
    session: z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(SESSION_STATUSES).nullable().openapi({ description: "Null once the session was deleted." }),
    }),
    condition: z.string().nullable(),
    comment: z.string().nullable(),
    photos: z.array(
      z.object({
        key: z.string().openapi({ description: "Object key; GET /objects/{objectKey}/view-url signs a view URL." }),
      }),
    ),
    location: Place.openapi({
      description: "Where it was scanned: the session's location (null for an unscoped session).",
    }),
    expectedLocation: Place.openapi({ description: "Where the asset was recorded when scanned." }),
    wrongLocation: z.boolean(),
    markedAnyway: z.boolean(),
    rescan: z.boolean(),
    unscannedAt: z.string().nullable(),
    supersededBy: z.string().nullable(),
    scanner: z.object({
      id: z.string(),
      kind: z.enum(["user", "apiKey", "other"]),
      name: z.string().nullable(),
      email: z.string().nullable(),
    }),
  })
  .openapi("ScanRecord");

export const ScanRecordPage = pageOf(ScanRecordSchema, "ScanRecordPage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type ScanRecord = z.infer<typeof ScanRecordSchema>;
