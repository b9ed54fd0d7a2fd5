import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  MAX_PRINT,
  previewTemplate,
  printLabels,
} from "./print";
import { CreateTemplateBody, LabelTemplateSchema } from "./templates";

const tags = ["Labels"];
const TemplateParams = z.object({
  templateId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "templateId", in: "path" }, example: "default-avery5160" }),
});
const ids = z.array(z.string().min(1).max(64)).min(1).max(MAX_PRINT);

const PrintBody = z
  .strictObject({
    templateId: z.string().min(1).max(64).openapi({
      example: "default-avery5160",
      description: "A workspace template or a default (`GET /label-templates`).",
    }),
    format: z.enum(["pdf", "png", "zpl"]).default("pdf").openapi({
      description:
        "`pdf`: sheets or roll pages; `png`: one label at the template's DPI (Brother QL); `zpl`: one `^XA…^XZ` per label (Zebra).",
    }),
    startPosition: z.number().int().min(1).max(100).optional().openapi({
      description:
        "Sheets: the first free position on the first sheet (1 = top left, left to right then down), to finish a half-used sheet.",
    }),
    assetIds: ids.optional(),
    stockItemIds: ids.optional(),
    codeIds: ids
      .optional()
      .openapi({ description: "Reserved codes of a tag batch, to print before the equipment arrives." }),
  })
  .openapi("PrintLabels");

const binary = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: z.string().openapi({ format: "binary" }) } },
});

export const printRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/label-templates",
      operationId: "listLabelTemplates",
      tags,
      summary: "List label templates: the defaults, then the workspace's own",
      responses: {
        200: json(z.object({ items: z.array(LabelTemplateSchema) }).openapi("LabelTemplateList"), "Templates"),
      },
    }),
    async (c) => c.json(await listTemplates(serviceCtx(c)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/label-templates",
      operationId: "createLabelTemplate",
      tags,
      summary: "Create a label template",
      description:
        "Names are unique in the workspace (409). Omitted spec fields take their defaults (docs/labels.md#templates).",
      request: body(CreateTemplateBody),
      responses: { 201: json(LabelTemplateSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await createTemplate(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/label-templates/{templateId}",
      operationId: "getLabelTemplate",
      tags,
      summary: "Get a label template",
      request: { params: TemplateParams },
      responses: { 200: json(LabelTemplateSchema, "The template") },
    }),
    async (c) => c.json(await getTemplate(c.var.db, c.req.valid("param").templateId), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/label-templates/{templateId}",
      operationId: "deleteLabelTemplate",
      tags,
      summary: "Delete a label template (not a default: 409)",
      request: { params: TemplateParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await deleteTemplate(serviceCtx(c), c.req.valid("param").templateId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/label-templates/{templateId}/preview.png",
      operationId: "previewLabelTemplate",
      tags,
      summary: "A PNG of one label of the template (the first asset's, or sample text)",
      request: { params: TemplateParams },
      responses: { 200: binary("image/png", "PNG at the template's DPI") },
    }),
    async (c) => {
      const url = new URL(c.req.url);
      const png = await previewTemplate(serviceCtx(c), url.origin, c.var.tenant.slug, c.req.valid("param").templateId);
      return c.body(png.buffer as ArrayBuffer, 200, { "content-type": "image/png" });
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/labels/print",
      operationId: "printLabels",
      tags,
      summary: "Labels of assets, stock items or reserved codes with a template: PDF, PNG or ZPL",
      description:
        "Exactly one of `assetIds`, `stockItemIds`, `codeIds` (printed in that order, at most 1,000). The code encodes: QR, the thing's URL `<origin>/a/<tag>` (stock: `/s/<tag>`); other symbologies, the thing's own code of that symbology, else its tag (400 naming the thing when its tag cannot be printed so, e.g. EAN-13). Text is fitted by the template's rule and never leaves its box.",
      request: body(PrintBody),
      responses: {
        200: {
          description: "The labels",
          headers: {
            "Content-Disposition": HEADERS.contentDisposition(
              'Inline, with a file name: `inline; filename="labels.<pdf|png|zpl>"`.',
            ),
          },
          content: {
            "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
            "image/png": { schema: z.string().openapi({ format: "binary" }) },
            "application/zpl": { schema: z.string() },
          },
        },
        ...errorResponses(415),
      },
    }),
    async (c) => {
      const url = new URL(c.req.url);
      const out = await printLabels(serviceCtx(c), url.origin, c.var.tenant.slug, c.req.valid("json"));
      return c.body(out.bytes.buffer as ArrayBuffer, 200, {
        "content-type": out.type,
        "content-disposition": `inline; filename="labels.${out.ext}"`,
      });
    },
  );
