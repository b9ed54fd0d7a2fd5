import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { selfServiceOf } from "../../http/self-service";
import { serviceCtx } from "../../http/service-context";
import { BookingSchema } from "../bookings";
import { bookKit, checkinKit, checkoutKit } from "./actions";
import {
  CreateKitBody,
  ItemKitParams,
  KitBookingBody,
  KitCheckinResultSchema,
  KitCheckoutBody,
  KitCheckoutResultSchema,
  KitMemberParams,
  KitMembersBody,
  KitPage,
  KitParams,
  KitSchema,
  ListKitsQuery,
  tags,
  UpdateKitBody,
} from "./schemas";
import * as svc from "./service";

const REFUSED = "409 with `details.members`: a reason per refused item; nothing is changed.";

export const kitsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/kits",
      operationId: "listKits",
      tags,
      summary: "List kits",
      description:
        "The self-service role (requester) sees only the kits it may request: those whose every item is requestable (docs/requests.md).",
      request: { query: ListKitsQuery },
      responses: { 200: json(KitPage, "A page of kits") },
    }),
    async (c) => {
      const requester = (await selfServiceOf(c)) !== null;
      return c.json(await svc.listKits(c.var.db, c.req.valid("query"), requester), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits",
      operationId: "createKit",
      tags,
      summary: "Create a kit",
      description: "An item belongs to at most one kit (409 naming the items already in one).",
      request: body(CreateKitBody),
      responses: { 201: json(KitSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await svc.createKit(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/kits/{kitId}",
      operationId: "getKit",
      tags,
      summary: "Get a kit",
      request: { params: KitParams },
      responses: { 200: json(KitSchema, "The kit") },
    }),
    async (c) => c.json(await svc.getKit(c.var.db, c.req.valid("param").kitId), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/kits/{kitId}",
      operationId: "updateKit",
      tags,
      summary: "Rename a kit",
      request: { params: KitParams, ...body(UpdateKitBody) },
      responses: { 200: json(KitSchema, "Updated"), ...errorResponses(415) },
    }),
    async (c) => c.json(await svc.updateKit(serviceCtx(c), c.req.valid("param").kitId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/kits/{kitId}",
      operationId: "deleteKit",
      tags,
      summary: "Delete a kit (moved to the trash; its items stay)",
      description:
        "The kit goes to the trash and its items are released (they may join another kit meanwhile). Restore it with POST /kits/{kitId}/restore or through the trash; purge it there.",
      request: { params: KitParams },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteKit(serviceCtx(c), c.req.valid("param").kitId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits/{kitId}/restore",
      operationId: "restoreKit",
      tags,
      summary: "Restore a kit from the trash",
      description:
        "Brings the kit back with the items it had that are still live. 409 naming the items that joined another kit meanwhile (nothing restored); 404 when the kit is not in the trash.",
      request: { params: KitParams },
      responses: { 200: json(KitSchema, "The restored kit"), ...errorResponses(409) },
    }),
    async (c) => c.json(await svc.restoreKit(serviceCtx(c), c.req.valid("param").kitId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits/{kitId}/members",
      operationId: "addKitMembers",
      tags,
      summary: "Add items to a kit",
      request: { params: KitParams, ...body(KitMembersBody) },
      responses: { 200: json(KitSchema, "The kit"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await svc.addMembers(serviceCtx(c), c.req.valid("param").kitId, c.req.valid("json").assetIds), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/kits/{kitId}/members/{inventoryItemId}",
      operationId: "removeKitMember",
      tags,
      summary: "Remove an item from a kit",
      request: { params: KitMemberParams },
      responses: { 200: json(KitSchema, "The kit") },
    }),
    async (c) => {
      const p = c.req.valid("param");
      return c.json(await svc.removeMember(serviceCtx(c), p.kitId, p.inventoryItemId), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits/{kitId}/checkout",
      operationId: "checkoutKit",
      tags,
      summary: "Check every item of a kit out",
      description: `One batch, all or none; the plain checkout's bookings rule applies to each item. ${REFUSED} Under an agreement (the kit's, else its items' category's, else the workspace's), one pending hand-over for the whole kit is recorded in the same write and named in \`handover\` (docs/handovers.md).`,
      request: { params: KitParams, ...body(KitCheckoutBody) },
      responses: { 200: json(KitCheckoutResultSchema, "Checked out"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await checkoutKit(serviceCtx(c), c.req.valid("param").kitId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits/{kitId}/checkin",
      operationId: "checkinKit",
      tags,
      summary: "Check every checked-out item of a kit in",
      description:
        "One batch. Under an agreement that asks for a return signature, a pending return hand-over per person the items come back from is recorded in the same write (`handovers`, docs/handovers.md).",
      request: { params: KitParams },
      responses: { 200: json(KitCheckinResultSchema, "Checked in"), ...errorResponses(409) },
    }),
    async (c) => c.json(await checkinKit(serviceCtx(c), c.req.valid("param").kitId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/kits/{kitId}/bookings",
      operationId: "bookKit",
      tags,
      summary: "Book every item of a kit",
      description: "The booking conflict rules apply to every item; the 409 names the conflicting bookings and items.",
      request: { params: KitParams, ...body(KitBookingBody) },
      responses: { 201: json(BookingSchema, "Booked"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await bookKit(serviceCtx(c), c.req.valid("param").kitId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/kit",
      operationId: "getInventoryItemKit",
      tags,
      summary: "The kit an item belongs to",
      description: "404 when the item is in no kit.",
      request: { params: ItemKitParams },
      responses: { 200: json(KitSchema, "The kit") },
    }),
    async (c) => c.json(await svc.kitOfItem(c.var.db, c.req.valid("param").inventoryItemId), 200),
  );
