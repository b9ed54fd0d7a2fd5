import { createRouter, defineRoute, errorResponses, jsonBody as body, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { settingsOf } from "../../tenancy/registry";
import { basisOf } from "../../health";
import { historyRoutes } from "./history-routes";
import { listAssets } from "./list";
import { ItemParams, TagParams, tags } from "./params";
import { presentAsset } from "./resource";
import { AssetPage, AssetSchema, CreateAssetBody, ListAssetsQuery, UpdateAssetBody } from "./schemas";
import * as svc from "./service";
import { statusRoutes } from "./status-routes";

const crudRoutes = createRouter()
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items", operationId: "listInventoryItems", tags, summary: "List inventory items", description: "Cursor-paginated. Newest first; with `overdue=true` most overdue first; with `updatedSince` oldest change first (sync order); with `healthSort` by stored health score. Every item carries its `health`; `healthBadge` filters on it. `q` is a case-insensitive prefix of name, unique tag or serial number.", request: { query: ListAssetsQuery }, responses: { 200: json(AssetPage, "A page of inventory items") } }),
    async (c) => c.json(await listAssets(c.var.db, c.req.valid("query"), basisOf(settingsOf(c.var.tenant))), 200),
  )
  .openapi(
    // Registered before the /{inventoryItemId}/... routes so a tag never reads as an item id.
    defineRoute({ method: "get", path: "/inventory-items/unique-tag/{uniqueTag}", operationId: "getInventoryItemByTag", tags, summary: "Look an item up by its unique tag", description: "Case-insensitive; live items only.", request: { params: TagParams }, responses: { 200: json(AssetSchema, "The item") } }),
    async (c) => c.json(await presentAsset(c.var.db, await svc.getAssetByTag(serviceCtx(c), c.req.valid("param").uniqueTag)), 200),
  )
  .openapi(
    defineRoute({ method: "post", path: "/inventory-items", operationId: "createInventoryItem", tags, summary: "Create an inventory item", description: "uniqueTag is generated when absent; category and location default to the workspace defaults.", request: body(CreateAssetBody), responses: { 201: json(AssetSchema, "Created"), ...errorResponses(409, 415) } }),
    async (c) => c.json(await svc.createAsset(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}", operationId: "getInventoryItem", tags, summary: "Get an inventory item", request: { params: ItemParams }, responses: { 200: json(AssetSchema, "The item") } }),
    async (c) => c.json(await presentAsset(c.var.db, await svc.getAsset(c.var.db, c.req.valid("param").inventoryItemId)), 200),
  )
  .openapi(
    defineRoute({ method: "patch", path: "/inventory-items/{inventoryItemId}", operationId: "updateInventoryItem", tags, summary: "Update an inventory item", description: "Status and assignee change only through .../status, .../checkout and .../checkin. A location change adds a MOVED timeline entry.", request: { params: ItemParams, ...body(UpdateAssetBody) }, responses: { 200: json(AssetSchema, "Updated"), ...errorResponses(409, 415) } }),
    async (c) => c.json(await svc.updateAsset(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({ method: "delete", path: "/inventory-items/{inventoryItemId}", operationId: "deleteInventoryItem", tags, summary: "Move an inventory item to the trash", description: "A checked-out item must be checked in first (409).", request: { params: ItemParams }, responses: { 204: { description: "Deleted" }, ...errorResponses(409) } }),
    async (c) => {
      await svc.deleteAsset(serviceCtx(c), c.req.valid("param").inventoryItemId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({ method: "post", path: "/inventory-items/{inventoryItemId}/restore", operationId: "restoreInventoryItem", tags, summary: "Restore a deleted inventory item", description: "409 when a live item has taken its unique tag meanwhile, or its category or location is deleted.", request: { params: ItemParams }, responses: { 200: json(AssetSchema, "Restored"), ...errorResponses(409) } }),
    async (c) => c.json(await svc.restoreAsset(serviceCtx(c), c.req.valid("param").inventoryItemId), 200),
  );

export const assetsRouter = createRouter().route("/", crudRoutes).route("/", statusRoutes).route("/", historyRoutes);
