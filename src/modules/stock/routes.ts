import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { selfServiceOf } from "../../http/self-service";
import { serviceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { setStockLevel } from "./holdings";
import * as items from "./items";
import { listStockItems, listStockLevels } from "./list";
import { stockCtx } from "./rows";
import {
  CreateStockItemBody,
  ListStockItemsQuery,
  PageQuery,
  SetStockLevelBody,
  StockItemPage,
  StockItemParams,
  StockItemSchema,
  StockLevelPage,
  StockLevelParams,
  StockLevelSchema,
  StockTagParams,
  tags,
  UpdateStockItemBody,
} from "./schemas";

/**
 * Stock items: CRUD, the trash, and reorder levels per location. Movements are in movement-routes.ts.
 * The self-service role (docs/requests.md#the-self-service-role-requester) lists and reads requestable items only (others are 404 to it).
 */
export const stockItemsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items",
      operationId: "listStockItems",
      tags,
      summary: "List stock items",
      description:
        "By creation (id). With `updatedSince`: the sync list, oldest change first, deleted and purged items included with `deletedAt`. The self-service role (requester) gets requestable items only.",
      request: { query: ListStockItemsQuery },
      responses: { 200: json(StockItemPage, "A page of stock items") },
    }),
    async (c) => {
      const self = await selfServiceOf(c);
      const query = { ...c.req.valid("query"), ...(self ? { selfService: true } : {}) };
      return c.json(await listStockItems(c.var.db, query), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items",
      operationId: "createStockItem",
      tags,
      summary: "Create a stock item",
      description: "Starts with nothing on hand: receive stock to add units. 409 when the tag or SKU is taken.",
      request: body(CreateStockItemBody),
      responses: { 201: json(StockItemSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await items.createStockItem(stockCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items/tag/{tag}",
      operationId: "getStockItemByTag",
      tags,
      summary: "Look a stock item up by its tag",
      description:
        "The tag its label prints (and its QR code's `/s/<tag>` carries). Case-insensitive; live items only. The self-service role (requester): requestable items only (404 otherwise).",
      request: { params: StockTagParams },
      responses: { 200: json(StockItemSchema, "The stock item") },
    }),
    async (c) => {
      const item = await items.getStockItemByTag(c.var.db, c.req.valid("param").tag);
      if (!item.requestable && (await selfServiceOf(c))) throw notFound("Stock item");
      return c.json(item, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items/{stockItemId}",
      operationId: "getStockItem",
      tags,
      summary: "Get a stock item",
      description: "The self-service role (requester): requestable items only (404 otherwise).",
      request: { params: StockItemParams },
      responses: { 200: json(StockItemSchema, "The stock item") },
    }),
    async (c) => {
      const item = await items.getStockItem(c.var.db, c.req.valid("param").stockItemId);
      if (!item.requestable && (await selfServiceOf(c))) throw notFound("Stock item");
      return c.json(item, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/stock-items/{stockItemId}",
      operationId: "updateStockItem",
      tags,
      summary: "Update a stock item",
      description:
        "Quantities change only through movements. Making a returnable item consumable is refused (409) while units are out on its issues.",
      request: { params: StockItemParams, ...body(UpdateStockItemBody) },
      responses: { 200: json(StockItemSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await items.updateStockItem(stockCtx(c), c.req.valid("param").stockItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/stock-items/{stockItemId}",
      operationId: "deleteStockItem",
      tags,
      summary: "Delete a stock item (moved to the trash)",
      description:
        "Its quantities and history stay and come back with a restore. 409 while units are out on returnable issues.",
      request: { params: StockItemParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await items.deleteStockItem(serviceCtx(c), c.req.valid("param").stockItemId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/stock-items/{stockItemId}/restore",
      operationId: "restoreStockItem",
      tags,
      summary: "Restore a stock item from the trash",
      description: "409 when a live item took its tag or SKU meanwhile, or its category is deleted.",
      request: { params: StockItemParams },
      responses: { 200: json(StockItemSchema, "The restored item"), ...errorResponses(409) },
    }),
    async (c) => c.json(await items.restoreStockItem(serviceCtx(c), c.req.valid("param").stockItemId), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stock-items/{stockItemId}/levels",
      operationId: "listStockLevels",
      tags,
      summary: "Quantities of a stock item per location",
      request: { params: StockItemParams, query: PageQuery },
      responses: { 200: json(StockLevelPage, "A page of levels, by location id") },
    }),
    async (c) => c.json(await listStockLevels(c.var.db, c.req.valid("param").stockItemId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/stock-items/{stockItemId}/levels/{locationId}",
      operationId: "setStockLevel",
      tags,
      summary: "Set the reorder level of a stock item at a location",
      description:
        "Below it (strictly), one `stock.low` and one notification per admin are sent once per crossing; back at or above it, `stock.restocked`. Null clears it.",
      request: { params: StockLevelParams, ...body(SetStockLevelBody) },
      responses: { 200: json(StockLevelSchema, "The level"), ...errorResponses(415) },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(
        await setStockLevel(stockCtx(c), p.stockItemId, p.locationId, c.req.valid("json").reorderLevel),
        200,
      );
    },
  );
