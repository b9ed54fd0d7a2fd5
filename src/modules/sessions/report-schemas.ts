import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { SessionSchema } from "./schemas";
import { REPORT_UNKNOWN_CODES } from "./unknown-codes";

/** The session report (report.ts builds it; the route and the session.completed event carry it). */

const Bucket = z.object({
  id: z.string(),
  name: z.string().nullable(),
  expected: z.number().int(),
  scanned: z.number().int(),
  missing: z.number().int(),
});

const UnknownCode = z
  .object({
    code: z.string().openapi({ description: "The code as scanned." }),
    scannedAt: z.string().openapi({ description: "Its first scan (repeats are answered, not recorded)." }),
    scannerId: z.string().openapi({ description: "Who scanned it first: a user or an API key." }),
    kind: z.enum(["user", "apiKey"]),
    name: z.string().nullable().openapi({ description: "The user's name (or email) or the key's name." }),
  })
  .openapi("SessionUnknownCode");

export const ReportSchema = z
  .object({
    sessionId: z.string(),
    status: z.string(),
    expected: z.number().int(),
    scanned: z.number().int(),
    missing: z.number().int(),
    found: z.number().int(),
    excluded: z.number().int(),
    unexpected: z.number().int().openapi({ description: "Known assets scanned that were not expected (distinct)." }),
    wrongLocation: z.number().int().openapi({
      description: "Assets found outside a location scope: answered wrong_location or marked anyway (distinct).",
    }),
    unknownCodes: z.number().int().openapi({ description: "Distinct codes that matched no asset." }),
    unknownCodeList: z.array(UnknownCode).openapi({
      description: `Each code that matched no asset, in code order, with who scanned it first and when. At most ${REPORT_UNKNOWN_CODES} codes (\`unknownCodes\` is the total; \`GET /exports/sessions/{sessionId}/report\` lists them all, state \`unknown_code\`).`,
    }),
    unknownCodeListTruncated: z
      .boolean()
      .openapi({ description: `True when the session has more than ${REPORT_UNKNOWN_CODES} unknown codes.` }),
    byLocation: z.array(Bucket),
    byCategory: z.array(Bucket),
    byScanner: z.array(
      z.object({ scannerId: z.string(), kind: z.string(), name: z.string().nullable(), accepted: z.number().int() }),
    ),
    duration: z.object({
      startedAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      seconds: z.number().int().nullable(),
      firstScanAt: z.string().nullable(),
      lastScanAt: z.string().nullable(),
    }),
    generatedAt: z.string(),
  })
  .openapi("SessionReport");

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const sessionWebhookResources = {
  session: SessionSchema,
  sessionReport: ReportSchema,
} satisfies WebhookResources;
