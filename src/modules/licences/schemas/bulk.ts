import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../../platform/schemas";
import { ProductSchema } from "./products";
import { SeatSchema } from "./seats";

/** The most ids one bulk request may name. */
export const MAX_BULK_LICENCES = 100;

const ids = (what: string, example: string) =>
  z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(MAX_BULK_LICENCES)
    .refine((list) => new Set(list).size === list.length, "ids must not repeat")
    .openapi({ description: `1..${MAX_BULK_LICENCES} ${what} ids; answered in this order.`, example: [example] });

export const BulkLicenceProductsBody = z
  .strictObject({
    action: z.enum(["delete", "restore"]),
    ids: ids("software product", "lic_01jd3k4m5n6p7q8r9s0t1v2w3x"),
  })
  .openapi("BulkLicenceProducts");
export const BulkLicenceLotsBody = z
  .strictObject({ action: z.literal("delete"), ids: ids("lot", "lot_01jd3k4m5n6p7q8r9s0t1v2w3x") })
  .openapi("BulkLicenceLots");
export const BulkLicenceSeatsBody = z
  .strictObject({ action: z.literal("unassign"), ids: ids("seat", "sea_01jd3k4m5n6p7q8r9s0t1v2w3x") })
  .openapi("BulkLicenceSeats");

/** Per-id outcomes in request order: the status (and error envelope) the single route would have answered. */
const results = <T extends z.ZodType>(item: T | null, name: string) =>
  z
    .object({
      items: z.array(
        z.object({
          id: z.string(),
          ok: z.boolean(),
          status: z.number().int().openapi({ description: "The status the single route would have answered." }),
          ...(item ? { item: item.optional().openapi({ description: "The resource after the action." }) } : {}),
          error: ErrorSchema.optional().openapi({
            description: "The error envelope the single route would have answered.",
          }),
        }),
      ),
    })
    .openapi(name);

export const BulkLicenceProductsResult = results(ProductSchema, "BulkLicenceProductsResult");
export const BulkLicenceLotsResult = results(null, "BulkLicenceLotsResult");
export const BulkLicenceSeatsResult = results(SeatSchema, "BulkLicenceSeatsResult");
