import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import { CreateLocationBody, ListLocationsQuery, LocationPage, LocationSchema, UpdateLocationBody } from "./schemas";
import * as svc from "./service";
import { toLocation } from "./view";

const tags = ["Locations"];
const Params = z.object({ locationId: idParam("locationId", "loc_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const PARENT_RULES =
  "`parentId` must name a live location (else 400 naming `body.parentId`); a location cannot be placed under itself or one of its descendants (409).";

export const locationsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/locations",
      operationId: "listLocations",
      tags,
      summary: "List locations",
      description: "All live locations, flat, by name; `parentId` narrows to one location's direct children.",
      request: { query: ListLocationsQuery },
      responses: { 200: json(LocationPage, "A page of locations, by name") },
    }),
    async (c) => c.json(await svc.listLocations(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/locations/default",
      operationId: "getDefaultLocation",
      tags,
      summary: "The workspace's default location",
      responses: { 200: json(LocationSchema, "The default location") },
    }),
    async (c) => c.json(toLocation(await svc.getDefaultLocation(serviceCtx(c))), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/locations/{locationId}",
      operationId: "getLocation",
      tags,
      summary: "Get a location",
      request: { params: Params },
      responses: { 200: json(LocationSchema, "The location") },
    }),
    async (c) => c.json(toLocation(await svc.getLocation(serviceCtx(c), c.req.valid("param").locationId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/locations",
      operationId: "createLocation",
      tags,
      summary: "Create a location",
      description: PARENT_RULES,
      request: body(CreateLocationBody),
      responses: { 201: json(LocationSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(toLocation(await svc.createLocation(serviceCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/locations/{locationId}",
      operationId: "updateLocation",
      tags,
      summary: "Update or move a location",
      description: `${PARENT_RULES} \`parentId: null\` moves it to the top level.`,
      request: { params: Params, ...body(UpdateLocationBody) },
      responses: { 200: json(LocationSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(
        toLocation(await svc.updateLocation(serviceCtx(c), c.req.valid("param").locationId, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/locations/{locationId}",
      operationId: "deleteLocation",
      tags,
      summary: "Move a location to the trash",
      description:
        "409 for the default location, and for a location that still contains live locations (`details.children` says how many), assets (`details.assets`) or units of live stock items (`details.stockItems`: transfer or issue them first).",
      request: { params: Params },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await svc.deleteLocation(serviceCtx(c), c.req.valid("param").locationId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/locations/{locationId}/restore",
      operationId: "restoreLocation",
      tags,
      summary: "Restore a deleted location",
      description:
        "Restores it under its former parent. 409 while that parent is deleted (restore the parent first; `details.parentId` names it) or when a live location has taken its name.",
      request: { params: Params },
      responses: { 200: json(LocationSchema, "Restored"), ...errorResponses(409) },
    }),
    async (c) => c.json(toLocation(await svc.restoreLocation(serviceCtx(c), c.req.valid("param").locationId)), 200),
  );
