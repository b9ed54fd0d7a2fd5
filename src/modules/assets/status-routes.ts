import { createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { AllowedTransitionsSchema, CheckinBody, CheckoutBody, StatusBody } from "./action-schemas";
import { checkin, checkout } from "./checkout";
import { allowedTransitions } from "./lifecycle";
import { requireAsset } from "./lookup";
import { ItemParams, tags } from "./params";
import { AssetSchema } from "./schemas";
import { changeStatus } from "./status";

const jsonBody = <T extends Parameters<typeof json>[0]>(schema: T, required = true) => ({ body: { required, content: { "application/json": { schema } } } });

export const statusRoutes = createRouter()
  .openapi(
    defineRoute({ method: "post", path: "/inventory-items/{inventoryItemId}/status", operationId: "changeInventoryItemStatus", tags, summary: "Move an item to another status", description: "Follows the lifecycle table (GET .../allowed-status-transitions). A forbidden move is 409 with the allowed moves in `details.allowed`; `assigned` is reached only by checkout and left only by check-in. `retired` needs a reason.", request: { params: ItemParams, ...jsonBody(StatusBody) }, responses: { 200: json(AssetSchema, "The item after the move"), ...errorResponses(409, 415) } }),
    async (c) => c.json(await changeStatus(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}/allowed-status-transitions", operationId: "getAllowedStatusTransitions", tags, summary: "The moves allowed from the item's current status", request: { params: ItemParams }, responses: { 200: json(AllowedTransitionsSchema, "Allowed moves") } }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json({ status: asset.status, allowed: allowedTransitions(asset.status) }, 200);
    },
  )
  .openapi(
    defineRoute({ method: "post", path: "/inventory-items/{inventoryItemId}/checkout", operationId: "checkoutInventoryItem", tags, summary: "Check an item out to a person", description: "Allowed from `available` and `reserved` (ends the reservation). 409 when the item is assigned, in maintenance, lost or retired, or the person is deactivated or deleted; 400 for an unknown person or a dueBackAt in the past.", request: { params: ItemParams, ...jsonBody(CheckoutBody) }, responses: { 200: json(AssetSchema, "The item, now assigned"), ...errorResponses(409, 415) } }),
    async (c) => c.json(await checkout(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({ method: "post", path: "/inventory-items/{inventoryItemId}/checkin", operationId: "checkinInventoryItem", tags, summary: "Check an item back in", description: "Clears the assignee, closes the assignment (check-in time and who), sets `available`; the location is unchanged. Body optional.", request: { params: ItemParams, ...jsonBody(CheckinBody, false) }, responses: { 200: json(AssetSchema, "The item, now available"), ...errorResponses(409, 415) } }),
    async (c) => c.json(await checkin(serviceCtx(c), c.req.valid("param").inventoryItemId, c.req.valid("json")), 200),
  );
