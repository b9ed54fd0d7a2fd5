import { z } from "@hono/zod-openapi";
import { createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";
import { ScanRecordPage } from "./schemas";
import { itemScanHistory } from "./service";

const tags = ["Scan events"];
const Params = z.object({ itemId: idParam("itemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const scanEventsRouter = createRouter().openapi(
  defineRoute({
    method: "get",
    path: "/scan-events/items/{itemId}/history",
    operationId: "getItemScanHistory",
    tags,
    summary: "Scan history of an asset",
    description:
      "Scan records across sessions, newest first: session, result, condition, comment, photos, location and scanner. Accepted scans and the first not-in-session / wrong-location answer per session are recorded; repeats are not.",
    request: { params: Params, query: z.object(pageQuery) },
    responses: { 200: json(ScanRecordPage, "A page of scan records") },
  }),
  async (c) => c.json(await itemScanHistory(serviceCtx(c), c.req.valid("param").itemId, c.req.valid("query")), 200),
);
