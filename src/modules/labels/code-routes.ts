import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import {
  AttachCodeBody,
  ClaimCodeBody,
  CodeLookupSchema,
  CodePage,
  CodeSchema,
  ListCodesQuery,
  ReserveBatchBody,
  TagBatchSchema,
} from "./code-schemas";
import { attachCode, claimCode, listCodes, lookupCode, voidCode } from "./codes";
import { reserveBatch } from "./tag-batches";

const tags = ["Codes"];
const IdParams = z.object({ codeId: idParam("codeId", "cod_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const ValueParams = z.object({
  value: z
    .string()
    .min(1)
    .max(512)
    .openapi({
      param: { name: "value", in: "path" },
      example: "AST-00042",
      description: "A scanned value: a tag or a code (URL-encoded).",
    }),
});

export const codesRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/codes/lookup/{value}",
      operationId: "lookupCode",
      tags,
      summary: "What a scanned value names: a tag or any code",
      description:
        "The holder (asset, kit, location or stock item) whose own tag or one of whose codes is `value`, or a reserved (unclaimed) code. A UPC-A read as its 13-digit EAN (a leading 0) finds the same code. 404 when nothing has it (a void code included). See docs/labels.md.",
      request: { params: ValueParams },
      responses: { 200: json(CodeLookupSchema, "What the value names") },
    }),
    async (c) => c.json(await lookupCode(serviceCtx(c), c.req.valid("param").value), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/codes",
      operationId: "listCodes",
      tags,
      summary: "List codes",
      description:
        "Oldest first. `status=reserved` lists the unclaimed codes; `holderKind` and `holderId` one thing's codes.",
      request: { query: ListCodesQuery },
      responses: { 200: json(CodePage, "A page of codes") },
    }),
    async (c) => c.json(await listCodes(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/codes",
      operationId: "attachCode",
      tags,
      summary: "Attach a code to an asset, kit, location or stock item",
      description:
        "A value is unique in the workspace whatever its symbology, and no code may equal a tag: 409 naming who has it (or the tag batch that reserved it: claim it instead). 400 when the value cannot be printed in the symbology (EAN-13 and UPC-A: the check digit is added, or checked).",
      request: body(AttachCodeBody),
      responses: { 201: json(CodeSchema, "Attached"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await attachCode(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/codes/{codeId}/void",
      operationId: "voidCode",
      tags,
      summary: "Void a code (unclaimed or attached)",
      description:
        "The code names nothing from then on, and its value may be given again. Voiding a void code changes nothing.",
      request: { params: IdParams },
      responses: { 200: json(CodeSchema, "Voided") },
    }),
    async (c) => c.json(await voidCode(serviceCtx(c), c.req.valid("param").codeId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/codes/lookup/{value}/claim",
      operationId: "claimCode",
      tags,
      summary: "Claim a reserved code for an asset, kit, location or stock item",
      description:
        "Exactly once: of two claims of one code, one wins and the other is a 409 naming the winner's holder. 404 when no reserved or attached code has the value.",
      request: { params: ValueParams, ...body(ClaimCodeBody) },
      responses: { 200: json(CodeSchema, "Claimed"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await claimCode(serviceCtx(c), c.req.valid("param").value, c.req.valid("json").holder), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/tag-batches",
      operationId: "reserveTagBatch",
      tags,
      summary: "Reserve a batch of tag codes to print before the equipment arrives",
      description:
        "`prefix` + `count` (+ `start`, `digits`) make the values `AST-00001`…; or `values` imports them. At most 1,000. 409 listing the values already taken (a tag or a live code). The codes are `reserved` until claimed (docs/labels.md#tags-before-assets).",
      request: body(ReserveBatchBody),
      responses: { 201: json(TagBatchSchema, "Reserved"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await reserveBatch(serviceCtx(c), c.req.valid("json")), 201),
  );
