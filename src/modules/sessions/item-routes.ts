import { z } from "@hono/zod-openapi";
import { createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";
import { sessionCtx } from "./context";
import * as items from "./items";
import { ReportSchema } from "./report-schemas";
import { SessionParams } from "./schemas";

const tags = ["Inventory sessions"];
const ItemParams = SessionParams.extend({ itemId: idParam("itemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const SessionItemSchema = z
  .object({
    itemId: z.string(),
    name: z.string(),
    uniqueTag: z.string(),
    locationId: z.string(),
    categoryId: z.string(),
    source: z.enum(["scope", "manual", "found"]).openapi({
      description: "`scope`: taken at start; `manual`: included by hand; `found`: outside the scope, marked anyway.",
    }),
    state: z.enum(["scanned", "missing", "excluded", "found"]),
    wrongLocation: z.boolean(),
    scan: z
      .object({
        scanId: z.string(),
        scannedAt: z.string().nullable(),
        scannedBy: z.string().nullable(),
        condition: z.string().nullable(),
      })
      .nullable(),
  })
  .openapi("SessionItem");

const SessionItemDetail = SessionItemSchema.extend({
  scans: z.array(
    z.object({
      scanId: z.string(),
      result: z.string(),
      scannedAt: z.string(),
      scannedBy: z.string(),
      condition: z.string().nullable(),
      comment: z.string().nullable(),
      rescan: z.boolean(),
      unscannedAt: z.string().nullable(),
      supersededBy: z.string().nullable(),
    }),
  ),
}).openapi("SessionItemDetail");

const ItemPage = pageOf(SessionItemSchema, "SessionItemPage");
const ItemsQuery = z.object({
  ...pageQuery,
  state: z
    .enum(["all", "scanned", "missing", "excluded", "found"])
    .optional()
    .openapi({ description: "Default `all` (everything except unscanned `found` rows)." }),
});

const MEMBERSHIP =
  "A draft records it for the start; an active session changes its expected set at once; completed or cancelled: 409. Unknown or deleted asset: 404.";

export const sessionItemsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/items",
      operationId: "listSessionItems",
      tags,
      summary: "Items of a session with their scan state",
      description: "By asset id. A draft has only its manual includes/exclusions: the expected set is taken at start.",
      request: { params: SessionParams, query: ItemsQuery },
      responses: { 200: json(ItemPage, "A page of items") },
    }),
    async (c) =>
      c.json(await items.listItems(sessionCtx(c), c.req.valid("param").sessionId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/items/{itemId}",
      operationId: "getSessionItem",
      tags,
      summary: "One item of a session",
      description: "With its scan records in this session (latest 20).",
      request: { params: ItemParams },
      responses: { 200: json(SessionItemDetail, "The item") },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(await items.getItem(sessionCtx(c), p.sessionId, p.itemId), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/items/{itemId}/include",
      operationId: "includeSessionItem",
      tags,
      summary: "Include an asset in the expected set",
      description: MEMBERSHIP,
      request: { params: ItemParams },
      responses: { 200: json(SessionItemDetail, "The item"), ...errorResponses(409) },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(await items.setMembership(sessionCtx(c), p.sessionId, p.itemId, false), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/items/{itemId}/exclude",
      operationId: "excludeSessionItem",
      tags,
      summary: "Exclude an asset from the expected set",
      description: `${MEMBERSHIP} A scan it already has stays recorded but no longer counts.`,
      request: { params: ItemParams },
      responses: { 200: json(SessionItemDetail, "The item"), ...errorResponses(409) },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(await items.setMembership(sessionCtx(c), p.sessionId, p.itemId, true), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/missing",
      operationId: "listMissingSessionItems",
      tags,
      summary: "Expected items not scanned yet",
      request: { params: SessionParams, query: z.object(pageQuery) },
      responses: { 200: json(ItemPage, "A page of missing items") },
    }),
    async (c) =>
      c.json(
        await items.listItems(sessionCtx(c), c.req.valid("param").sessionId, {
          ...c.req.valid("query"),
          state: "missing",
        }),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/report",
      operationId: "getSessionReport",
      tags,
      summary: "Session report",
      description: "Live while active; the stored final report once completed or cancelled.",
      request: { params: SessionParams },
      responses: { 200: json(ReportSchema, "The report") },
    }),
    async (c) => c.json(await items.getReport(sessionCtx(c), c.req.valid("param").sessionId), 200),
  );

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type SessionItem = z.infer<typeof SessionItemSchema>;
export type SessionItemDetail = z.infer<typeof SessionItemDetail>;
export { ReportSchema };
export type SessionReport = z.infer<typeof ReportSchema>;
