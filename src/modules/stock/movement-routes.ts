import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { selfServiceOf } from "../../http/self-service";
import { notFound } from "../../platform/errors";
import { bulkStockMovements } from "./bulk";
import { BulkStockMovementsBody, BulkStockMovementsResultSchema, MAX_BULK_MOVEMENTS } from "./bulk-schemas";
import { listPersonStock } from "./holdings";
import { requireStockItem } from "./items";
import { getMovement, listMovements } from "./list";
import { adjustStock, issueStock, receiveStock, returnStock, transferStock } from "./movements";
import { stockCtx } from "./rows";
import {
  AdjustStockBody,
  IssueStockBody,
  ListAllMovementsQuery,
  ListMovementsQuery,
  PageQuery,
  PersonStockParams,
  ReceiveStockBody,
  ReturnStockBody,
  StockItemParams,
  StockMovementPage,
  StockMovementParams,
  StockMovementResultSchema,
  StockMovementSchema,
  TransferStockBody,
  tags,
} from "./schemas";

const EXACT =
  "One batch: the movement row, the quantities and the event, all or nothing. Send an `Idempotency-Key` to retry safely.";
const SHORT = "409 naming what is there (`details.available`) when the location holds fewer units; nothing changes.";

const result = {
  201: json(StockMovementResultSchema, "The movement, the item and the touched levels after it"),
  ...errorResponses(409, 415),
};
export const stockMovementsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/receive",
      operationId: "receiveStock",
      tags,
      summary: "Receive stock",
      description: `Adds units at a location, with their unit cost, supplier and reference. ${EXACT}`,
      request: { params: StockItemParams, ...body(ReceiveStockBody) },
      responses: result,
    }),
    async (c) => c.json(await receiveStock(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/issue",
      operationId: "issueStock",
      tags,
      summary: "Issue stock",
      description: `Takes units from a location to a person, an asset or a location. A returnable item's issue stays open until returned. ${SHORT} ${EXACT}`,
      request: { params: StockItemParams, ...body(IssueStockBody) },
      responses: result,
    }),
    async (c) => c.json(await issueStock(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/return",
      operationId: "returnStock",
      tags,
      summary: "Return stock",
      description: `Brings units of an open returnable issue back (all of them by default) to the location they came from, or another. 409 when fewer are still out. ${EXACT}`,
      request: { params: StockItemParams, ...body(ReturnStockBody) },
      responses: result,
    }),
    async (c) => c.json(await returnStock(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/transfer",
      operationId: "transferStock",
      tags,
      summary: "Transfer stock between locations",
      description: `The total on hand is unchanged. ${SHORT} ${EXACT}`,
      request: { params: StockItemParams, ...body(TransferStockBody) },
      responses: result,
    }),
    async (c) => c.json(await transferStock(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/adjust",
      operationId: "adjustStock",
      tags,
      summary: "Adjust stock to a count",
      description: `A counted correction with a reason: the quantity at the location becomes \`countedQuantity\`. 409 when the quantity changed since it was read (or differs from \`expectedQuantity\`), or when nothing changes. ${EXACT}`,
      request: { params: StockItemParams, ...body(AdjustStockBody) },
      responses: result,
    }),
    async (c) => c.json(await adjustStock(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-movements/bulk",
      operationId: "bulkStockMovements",
      tags,
      summary: "Many movements in one request",
      description:
        `\`{ movements: [{ kind, stockItemId, ...the single route's body }] }\` for 1..${MAX_BULK_MOVEMENTS} receive, issue, return or transfer movements, applied in order. ` +
        "Answers 200 with `items` in request order: `{ index, ok: true, status: 201, movement, stockItem }` or `{ index, ok: false, status, error }` with the status and error envelope the single route would have answered " +
        "(a take is checked against the units there plus what the earlier movements of the request changed). The movements that pass are written as ONE batch, all or none, with every guard of the single routes (never below 0); " +
        "a reorder level is judged on the quantities after the whole request (one `stock.low` or `stock.restocked` per crossing). Send an `Idempotency-Key` to retry safely.",
      request: body(BulkStockMovementsBody),
      responses: {
        200: json(BulkStockMovementsResultSchema, "Per-movement outcomes, in request order"),
        ...errorResponses(415),
      },
    }),
    async (c) => c.json({ items: await bulkStockMovements(stockCtx(c), c.req.valid("json"), c.var.requestId) }, 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items/{stockItemId}/movements",
      operationId: "listStockItemMovements",
      tags,
      summary: "History of a stock item: its movements, oldest first",
      request: { params: StockItemParams, query: ListMovementsQuery },
      responses: { 200: json(StockMovementPage, "A page of movements") },
    }),
    async (c) => {
      const { stockItemId } = c.req.valid("param");
      await requireStockItem(c.var.db, stockItemId);
      return c.json(await listMovements(c.var.db, { ...c.req.valid("query"), itemId: stockItemId }), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-movements",
      operationId: "listStockMovements",
      tags,
      summary: "Every stock movement, oldest first",
      description: "Append-only: following `nextCursor` to the end and resuming later from it is a complete sync.",
      request: { query: ListAllMovementsQuery },
      responses: { 200: json(StockMovementPage, "A page of movements") },
    }),
    async (c) => c.json(await listMovements(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-movements/{movementId}",
      operationId: "getStockMovement",
      tags,
      summary: "Get a stock movement",
      request: { params: StockMovementParams },
      responses: { 200: json(StockMovementSchema, "The movement") },
    }),
    async (c) => {
      const m = await getMovement(c.var.db, c.req.valid("param").movementId);
      if (!m) throw notFound("Stock movement");
      return c.json(m, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/people/{personId}/stock",
      operationId: "listPersonStock",
      tags,
      summary: "What a person holds: their open returnable issues",
      description:
        "Next to their assets (GET /inventory-items?assigneeId=). Deactivating the person returns all of it to where it was issued from. The self-service role (requester): its own person only (404 otherwise).",
      request: { params: PersonStockParams, query: PageQuery },
      responses: { 200: json(StockMovementPage, "A page of open issues, oldest first") },
    }),
    async (c) => {
      const { personId } = c.req.valid("param");
      const self = await selfServiceOf(c);
      if (self && self.personId !== personId) throw notFound("Person");
      return c.json(await listPersonStock(c.var.db, personId, c.req.valid("query")), 200);
    },
  );
