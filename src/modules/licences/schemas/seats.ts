import { z } from "@hono/zod-openapi";
import { pageOf, pageQuery } from "../../../platform/pagination";
import { idParam } from "../../../platform/schemas";
import { updatedSinceParam } from "../../../platform/sync";
import { ref } from "./fields";

/** Seats: a lot's seat held by a person or an asset, open until unassigned (then its history). */
export const SeatSchema = z
  .object({
    id: z.string().openapi({ example: "sea_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    lotId: z.string(),
    productId: z.string(),
    productName: z.string().nullable(),
    holder: z.object({ kind: z.enum(["person", "asset"]), id: z.string(), name: z.string().nullable() }),
    assignedAt: z.string(),
    assignedBy: z.string().nullable(),
    unassignedAt: z.string().nullable(),
    unassignedBy: z.string().nullable(),
    unassignReason: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    costMinor: z.number().int().openapi({ description: "The lot's cost per seat, minor units of `currency`." }),
    currency: z.string().nullable(),
    updatedAt: z.string(),
  })
  .openapi("LicenceSeat");

export const SeatPage = pageOf(SeatSchema, "LicenceSeatPage");

export const AssignSeatBody = z
  .object({
    personId: ref("The person who gets the seat (per_user, concurrent, site, unlimited).").optional(),
    assetId: ref("The asset that gets the seat (per_device, site, unlimited).").optional(),
  })
  .strict()
  .refine((b) => (b.personId ? 1 : 0) + (b.assetId ? 1 : 0) === 1, "give exactly one of personId and assetId")
  .openapi("AssignLicenceSeat");

export const ListSeatsQuery = z.object({
  ...pageQuery,
  includeHistory: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Closed seats too (the history), newest first." }),
  updatedSince: updatedSinceParam,
});

export const SeatParams = z.object({ seatId: idParam("seatId", "sea_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const PersonSeatsParams = z.object({ personId: idParam("personId", "per_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const AssetSeatsParams = z.object({
  inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});

export type Seat = z.infer<typeof SeatSchema>;
