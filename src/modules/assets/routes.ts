import { requireAsset } from "../../domain/catalog";
import { basisOf } from "../../domain/health-engine";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { type SelfService, selfServiceOf } from "../../http/self-service";
import { serviceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { settingsOf } from "../../tenancy/registry";
import { bulkRoutes } from "./bulk/routes";
import { checkin } from "./custody/checkin";
import { checkout } from "./custody/checkout";
import { listAssignments, listAudit, listStatusEvents, listTimeline } from "./history/lists";
import { AssignmentPage, AuditPage, StatusEventPage, TimelinePage, TimelineQuery } from "./history/schemas";
import { listAssets } from "./list";
import {
  AllowedTransitionsSchema,
  AssetPage,
  AssetSchema,
  CheckinBody,
  CheckinResultSchema,
  CheckoutBody,
  CheckoutResultSchema,
  CreateAssetBody,
  ItemParams,
  ListAssetsQuery,
  PageQuery,
  StatusBody,
  TagParams,
  tags,
  UpdateAssetBody,
} from "./schemas";
import * as svc from "./service";
import { allowedTransitions, changeStatus } from "./status";
import { type AssetRow, presentAsset } from "./view";

/** The self-service role sees requestable assets and those its person holds; anything else is 404 to it. */
function visibleTo(self: SelfService | null, row: AssetRow): AssetRow {
  if (!self || row.requestable || (self.personId && row.assigneeId === self.personId)) return row;
  throw notFound("Inventory item");
}

const crudRoutes = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items",
      operationId: "listInventoryItems",
      tags,
      summary: "List inventory items",
      description:
        "Cursor-paginated. Newest first; with `overdue=true` most overdue first; with `updatedSince` oldest change first (sync order); with `healthSort` by stored health score. Every item carries its `health`; `healthBadge` filters on it. `q` is a case-insensitive prefix of name, unique tag or serial number.",
      request: { query: ListAssetsQuery },
      responses: { 200: json(AssetPage, "A page of inventory items") },
    }),
    async (c) => {
      const self = await selfServiceOf(c);
      const query = { ...c.req.valid("query"), ...(self ? { selfService: { personId: self.personId } } : {}) };
      return c.json(await listAssets(c.var.db, query, basisOf(settingsOf(c.var.tenant))), 200);
    },
  )
  .openapi(
    // Registered before the /{inventoryItemId}/... routes so a tag never reads as an item id.
    defineRoute({
      method: "get",
      path: "/inventory-items/unique-tag/{uniqueTag}",
      operationId: "getInventoryItemByTag",
      tags,
      summary: "Look an item up by its unique tag",
      description: "Case-insensitive; live items only.",
      request: { params: TagParams },
      responses: { 200: json(AssetSchema, "The item") },
    }),
    async (c) => {
      const row = await svc.getAssetByTag(serviceCtx(c), c.req.valid("param").uniqueTag);
      return c.json(await presentAsset(c.var.db, visibleTo(await selfServiceOf(c), row)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items",
      operationId: "createInventoryItem",
      tags,
      summary: "Create an inventory item",
      description: "uniqueTag is generated when absent; category and location default to the workspace defaults.",
      request: body(CreateAssetBody),
      responses: { 201: json(AssetSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await svc.createAsset(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}",
      operationId: "getInventoryItem",
      tags,
      summary: "Get an inventory item",
      request: { params: ItemParams },
      responses: { 200: json(AssetSchema, "The item") },
    }),
    async (c) => {
      const row = await svc.getAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await presentAsset(c.var.db, visibleTo(await selfServiceOf(c), row)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/inventory-items/{inventoryItemId}",
      operationId: "updateInventoryItem",
      tags,
      summary: "Update an inventory item",
      description:
        "Status and assignee change only through .../status, .../checkout and .../checkin. A location change adds a MOVED timeline entry.",
      request: { params: ItemParams, ...body(UpdateAssetBody) },
      responses: { 200: json(AssetSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await svc.updateAsset(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/inventory-items/{inventoryItemId}",
      operationId: "deleteInventoryItem",
      tags,
      summary: "Move an inventory item to the trash",
      description: "A checked-out item must be checked in first (409).",
      request: { params: ItemParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await svc.deleteAsset(serviceCtx(c), c.req.valid("param").inventoryItemId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items/{inventoryItemId}/restore",
      operationId: "restoreInventoryItem",
      tags,
      summary: "Restore a deleted inventory item",
      description: "409 when a live item has taken its unique tag meanwhile, or its category or location is deleted.",
      request: { params: ItemParams },
      responses: { 200: json(AssetSchema, "Restored"), ...errorResponses(409) },
    }),
    async (c) => c.json(await svc.restoreAsset(serviceCtx(c), c.req.valid("param").inventoryItemId), 200),
  );

const jsonBody = <T extends Parameters<typeof json>[0]>(schema: T, required = true) => ({
  body: { required, content: { "application/json": { schema } } },
});

const statusRoutes = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items/{inventoryItemId}/status",
      operationId: "changeInventoryItemStatus",
      tags,
      summary: "Move an item to another status",
      description:
        "Follows the lifecycle table (GET .../allowed-status-transitions). A forbidden move is 409 with the allowed moves in `details.allowed`; `assigned` is reached only by checkout and left only by check-in. `retired` needs a reason.",
      request: { params: ItemParams, ...jsonBody(StatusBody) },
      responses: { 200: json(AssetSchema, "The item after the move"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await changeStatus(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/allowed-status-transitions",
      operationId: "getAllowedStatusTransitions",
      tags,
      summary: "The moves allowed from the item's current status",
      request: { params: ItemParams },
      responses: { 200: json(AllowedTransitionsSchema, "Allowed moves") },
    }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json({ status: asset.status, allowed: allowedTransitions(asset.status) }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items/{inventoryItemId}/checkout",
      operationId: "checkoutInventoryItem",
      tags,
      summary: "Check an item out to a person, a location or another item",
      description:
        "Exactly one target: `personId` (the default form), `locationId` (the item moves there) or `assetId` (the item travels with that item from then on: it takes its location now and whenever it moves). Allowed from `available` and `reserved` (ends the reservation). 409 when the item is assigned, in maintenance, lost or retired, the person is deactivated or deleted, the target item is retired or lost, or the target item is the item itself or inside its subtree; 400 for an unknown target or a dueBackAt in the past. Items checked out to this one move with it. A checkout to a person whose item falls under an agreement (kit, else category, else workspace) records a pending hand-over in the same write and names it in `handover` (docs/handovers.md): the item is held either way.",
      request: { params: ItemParams, ...jsonBody(CheckoutBody) },
      responses: {
        200: json(CheckoutResultSchema, "The item, now assigned, and the pending hand-over if an agreement applies"),
        ...errorResponses(409, 415),
      },
    }),
    async (c) => c.json(await checkout(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items/{inventoryItemId}/checkin",
      operationId: "checkinInventoryItem",
      tags,
      summary: "Check an item back in",
      description:
        "Clears the holder, closes the assignment (check-in time and who), sets `available`; the location is unchanged. Items checked out to this one stay with it unless `cascade` is true; `children` names them either way. Back from a person under an agreement that asks for a return signature, the pending return hand-over is recorded in the same write and named in `handover` (docs/handovers.md). Body optional.",
      request: { params: ItemParams, ...jsonBody(CheckinBody, false) },
      responses: { 200: json(CheckinResultSchema, "The item, now available"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await checkin(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  );

const historyRoutes = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/status-events",
      operationId: "listInventoryItemStatusEvents",
      tags,
      summary: "Status changes of an item",
      description: "Newest first: who, when, from, to, reason, meta.",
      request: { params: ItemParams, query: PageQuery },
      responses: { 200: json(StatusEventPage, "A page of status events") },
    }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listStatusEvents(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/assignment-history",
      operationId: "listInventoryItemAssignmentHistory",
      tags,
      summary: "Checkouts and check-ins of an item",
      description: "Newest first: person, out/in times and who, due date.",
      request: { params: ItemParams, query: PageQuery },
      responses: { 200: json(AssignmentPage, "A page of assignments") },
    }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listAssignments(c.var.db, { assetId: asset.id }, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/audit",
      operationId: "listInventoryItemAudit",
      tags,
      summary: "Field-level change log of an item",
      description:
        "Newest first: one entry per changed field per write (who, when, field, old, new); delete and restore have no field.",
      request: { params: ItemParams, query: PageQuery },
      responses: { 200: json(AuditPage, "A page of audit entries") },
    }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listAudit(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/timeline",
      operationId: "listInventoryItemTimeline",
      tags,
      summary: "Timeline of an item",
      description: "Newest first. `types` filters by the timeline event types (comma-separated; an unknown type: 400).",
      request: { params: ItemParams, query: TimelineQuery },
      responses: { 200: json(TimelinePage, "A page of timeline entries") },
    }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listTimeline(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  );

export const assetsRouter = createRouter()
  .route("/", bulkRoutes)
  .route("/", crudRoutes)
  .route("/", statusRoutes)
  .route("/", historyRoutes);
