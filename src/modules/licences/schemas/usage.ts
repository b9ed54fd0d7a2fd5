import { z } from "@hono/zod-openapi";
import { pageQuery, wholeNumberQuery } from "../../../platform/pagination";
import { isoInstant } from "../../../platform/schemas";
import { ref } from "./fields";
import { SeatSchema } from "./seats";

/** Usage reports and the reclaim list built on them. */
export const UsageBody = z
  .object({
    source: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "Where the reports come from (default `api`)." }),
    reports: z
      .array(
        z
          .object({
            productId: ref("The product used."),
            personId: ref("Who used it.").optional(),
            assetId: ref("On which device.").optional(),
            usedAt: isoInstant,
          })
          .strict()
          .refine((r) => (r.personId ? 1 : 0) + (r.assetId ? 1 : 0) === 1, "give exactly one of personId and assetId"),
      )
      .min(1)
      .max(1000),
  })
  .strict()
  .openapi("LicenceUsageReport");

export const UsageResultSchema = z
  .object({
    recorded: z.number().int().openapi({ description: "Reports stored now (a report sent before counts once)." }),
    duplicates: z.number().int(),
    seatsTouched: z.number().int().openapi({ description: "Open seats whose lastUsedAt moved." }),
    unmatched: z.array(z.number().int()).openapi({
      description: "Indexes of reports whose holder has no open seat of the product (stored all the same).",
    }),
  })
  .openapi("LicenceUsageResult");

export const ReclaimQuery = z.object({
  ...pageQuery,
  days: wholeNumberQuery("days", 1, 3650).default(90),
  productId: z.string().max(64).optional(),
});

export const ReclaimBody = z
  .object({ seatIds: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .strict()
  .openapi("ReclaimLicenceSeats");

export const ReclaimResultSchema = z
  .object({ reclaimed: z.array(SeatSchema), notifiedUserIds: z.array(z.string()) })
  .openapi("ReclaimResult");
