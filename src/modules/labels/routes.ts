import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses } from "../../http/router";
import { idParam } from "../../platform/schemas";
import { assetTextQ, ItemParams } from "../assets";
import { LAYOUTS, type LayoutName } from "./pdf";
import { itemQrSvg, kitQrSvg, labelsPdf, locationQrSvg, MAX_LABELS, stockItemQrSvg } from "./service";

const tags = ["Labels"];

const svg = { 200: { description: "SVG image", content: { "image/svg+xml": { schema: z.string() } } } };
const SVG_TYPE = { "content-type": "image/svg+xml; charset=utf-8" };

const LabelsBody = z
  .object({
    layout: z.enum(Object.keys(LAYOUTS) as [LayoutName, ...LayoutName[]]).openapi({
      description:
        "`avery5160`: US Letter sheet, 3 x 10 (Avery 5160 / L7160 style); `roll62`: 62 mm roll, one 62 x 29 mm label per page.",
    }),
    assetIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_LABELS).optional(),
    stockItemIds: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_LABELS)
      .optional()
      .openapi({ description: "Labels of stock items: their tag, and a QR code of `/s/<tag>`." }),
    filter: z
      .object({
        categoryId: z.string().max(64).optional(),
        locationId: z.string().max(64).optional(),
        status: z.enum(["available", "assigned", "reserved", "maintenance", "lost", "retired"]).optional(),
        q: assetTextQ,
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi("LabelSheetRequest");

export const labelsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/qr.svg",
      operationId: "getInventoryItemQrSvg",
      tags,
      summary: "The item's QR code (its URL, `<origin>/a/<tag>`) as SVG",
      request: { params: ItemParams },
      responses: { 200: { description: "SVG image", content: { "image/svg+xml": { schema: z.string() } } } },
    }),
    async (c) => {
      const svg = await itemQrSvg(c.var.db, c.req.valid("param").inventoryItemId, new URL(c.req.url).origin);
      return c.body(svg, 200, { "content-type": "image/svg+xml; charset=utf-8" });
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/labels",
      operationId: "renderLabelSheet",
      tags,
      summary: "A PDF of labels (QR code, name, tag) for item ids or a list filter",
      description: `Either \`assetIds\` (printed in that order) or \`filter\` (as the item list; at most ${MAX_LABELS} matches). Each label: the QR code, the name on up to two lines (wrapped at spaces; "..." only when it does not fit in two), and the tag. Helvetica prints Latin-1 only: other characters print as \`?\`.`,
      request: body(LabelsBody),
      responses: {
        200: {
          description: "PDF",
          headers: {
            "Content-Disposition": HEADERS.contentDisposition(
              'Inline (browsers open it in their viewer, to print) with a file name for saving: `inline; filename="labels-<layout>.pdf"`.',
            ),
          },
          content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
        },
        ...errorResponses(415),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const pdf = await labelsPdf(c.var.db, new URL(c.req.url).origin, input);
      return c.body(pdf.buffer as ArrayBuffer, 200, {
        "content-type": "application/pdf",
        "content-disposition": `inline; filename="labels-${input.layout}.pdf"`,
      });
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items/{stockItemId}/qr.svg",
      operationId: "getStockItemQrSvg",
      tags,
      summary: "The stock item's QR code (its URL, `<origin>/s/<tag>`) as SVG",
      description: "The field app opens the stock item's page at that URL (docs/field-app.md).",
      request: { params: z.object({ stockItemId: idParam("stockItemId", "stk_01jd3k4m5n6p7q8r9s0t1v2w3x") }) },
      responses: svg,
    }),
    async (c) =>
      c.body(
        await stockItemQrSvg(c.var.db, c.req.valid("param").stockItemId, new URL(c.req.url).origin),
        200,
        SVG_TYPE,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/kits/{kitId}/qr.svg",
      operationId: "getKitQrSvg",
      tags,
      summary: "The kit's QR code (its URL, `<origin>/k/<kit id>`) as SVG",
      description: "A kit has no tag: its label carries its id. The field app opens the kit's page at that URL.",
      request: { params: z.object({ kitId: idParam("kitId", "kit_01jd3k4m5n6p7q8r9s0t1v2w3x") }) },
      responses: svg,
    }),
    async (c) => c.body(await kitQrSvg(c.var.db, c.req.valid("param").kitId, new URL(c.req.url).origin), 200, SVG_TYPE),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/locations/{locationId}/qr.svg",
      operationId: "getLocationQrSvg",
      tags,
      summary: "The location's QR code (its URL, `<origin>/l/<location id>`) as SVG",
      description:
        "A location has no tag: its label carries its id. The field app opens the location's page at that URL, and takes the label as the holder when checking an asset out to a location.",
      request: { params: z.object({ locationId: idParam("locationId", "loc_01jd3k4m5n6p7q8r9s0t1v2w3x") }) },
      responses: svg,
    }),
    async (c) =>
      c.body(await locationQrSvg(c.var.db, c.req.valid("param").locationId, new URL(c.req.url).origin), 200, SVG_TYPE),
  );
