import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { applyStockCounts, countStock, listStockCounts } from "./counts";
import { stockCtx } from "./rows";
import {
  ApplyStockCountsResult,
  CountStockBody,
  CountStockResult,
  PageQuery,
  SessionParams,
  StockCountPage,
  tags,
} from "./schemas";

/** Counting stock in inventory sessions (docs/stock.md, "Counting in sessions"). */
export const stockCountsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/stock-counts",
      operationId: "countSessionStock",
      tags,
      summary: "Count a stock item at a location in an active session",
      description:
        "The latest count per item and location wins. With `scanId`, a replay (the offline queue) counts once and answers `already_counted`. 409 unless the session is active.",
      request: { params: SessionParams, ...body(CountStockBody) },
      responses: { 200: json(CountStockResult, "The count"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await countStock(serviceCtx(c), c.req.valid("param").sessionId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/stock-counts",
      operationId: "listSessionStockCounts",
      tags,
      summary: "A session's stock counts with their variance",
      request: { params: SessionParams, query: PageQuery },
      responses: { 200: json(StockCountPage, "A page of counts, by item and location") },
    }),
    async (c) => c.json(await listStockCounts(c.var.db, c.req.valid("param").sessionId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/stock-counts/apply",
      operationId: "applySessionStockCounts",
      tags,
      summary: "Apply a completed session's stock variances",
      description:
        "One adjust movement per count with a variance not yet applied (at most 200 per call), all in one batch; the variance is added to the quantity there now. 409 unless the session is completed.",
      request: { params: SessionParams },
      responses: { 200: json(ApplyStockCountsResult, "The adjust movements written"), ...errorResponses(409) },
    }),
    async (c) => c.json(await applyStockCounts(stockCtx(c), c.req.valid("param").sessionId), 200),
  );
