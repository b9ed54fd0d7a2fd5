import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses } from "../../http/router";
import { assetTextQ, ItemParams } from "../assets";
import { LAYOUTS, type LayoutName } from "./pdf";
import { itemQrSvg, labelsPdf, MAX_LABELS } from "./service";

const tags = ["Labels"];

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
  );
