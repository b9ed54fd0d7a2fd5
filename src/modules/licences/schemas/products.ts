import { z } from "@hono/zod-openapi";
import { HOLDER_LEAVES } from "../../../db/tenant/licences";
import { pageOf, pageQuery } from "../../../platform/pagination";
import { idParam, nameField, textField } from "../../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../../platform/sync";
import { shortText } from "./fields";

/** Software products: what the workspace licenses (docs/licences.md#products-and-entitlements-lots). */
export const ProductSchema = z
  .object({
    id: z.string().openapi({ example: "lic_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    vendor: z.string().nullable(),
    category: z.string().nullable(),
    notes: z.string().nullable(),
    onHolderLeaves: z.enum(HOLDER_LEAVES).openapi({
      description:
        "When a seat's person is deactivated or its asset retired: `release` frees the seat (licence_seat.released), `hold` keeps it.",
    }),
    customFields: z.record(z.string(), z.unknown()),
    seats: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Seats owned over its live lots; null when a lot is unlimited or a site licence." }),
    assigned: z.number().int().openapi({ description: "Open seats over its live lots." }),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: deletedAtField,
  })
  .openapi("LicenceProduct");

export const ProductPage = pageOf(ProductSchema, "LicenceProductPage");

export const CreateProductBody = z
  .object({
    name: nameField,
    vendor: shortText(120),
    category: shortText(120),
    notes: textField.nullable().optional(),
    onHolderLeaves: z.enum(HOLDER_LEAVES).optional(),
    customFields: z
      .record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
      .optional(),
  })
  .strict()
  .openapi("CreateLicenceProduct");

export const UpdateProductBody = CreateProductBody.partial().strict().openapi("UpdateLicenceProduct");

export const ListProductsQuery = z.object({
  ...pageQuery,
  q: z.string().trim().max(120).optional().openapi({ description: "A case-insensitive prefix of the name or vendor." }),
  updatedSince: updatedSinceParam,
});

export const ProductParams = z.object({ productId: idParam("productId", "lic_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export type Product = z.infer<typeof ProductSchema>;
