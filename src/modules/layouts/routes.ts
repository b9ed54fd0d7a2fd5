import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import {
  CreateLayoutBody,
  DefaultLayoutQuery,
  LayoutPage,
  LayoutSchema,
  ListLayoutsQuery,
  UpdateLayoutBody,
} from "./schemas";
import * as svc from "./service";
import { present } from "./view";

const tags = ["Layouts"];
const Params = z.object({ layoutId: idParam("layoutId", "lay_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const layoutsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/layouts",
      operationId: "listLayouts",
      tags,
      summary: "List form layouts",
      description: "Oldest first; filter by `entity`.",
      request: { query: ListLayoutsQuery },
      responses: { 200: json(LayoutPage, "A page of layouts") },
    }),
    async (c) => c.json(await svc.listLayouts(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/layouts/default",
      operationId: "getDefaultLayout",
      tags,
      summary: "The default layout of an entity",
      description: "What a create/edit form shows. 404 when the entity has no layout yet.",
      request: { query: DefaultLayoutQuery },
      responses: { 200: json(LayoutSchema, "The default layout") },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      return c.json(await present(ctx.db, await svc.getDefaultLayout(ctx, c.req.valid("query").entity)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/layouts/{layoutId}",
      operationId: "getLayout",
      tags,
      summary: "Get a layout",
      request: { params: Params },
      responses: { 200: json(LayoutSchema, "The layout") },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      return c.json(await present(ctx.db, await svc.getLayout(ctx, c.req.valid("param").layoutId)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/layouts",
      operationId: "createLayout",
      tags,
      summary: "Create a layout",
      description:
        "Fields are built-in field names of the entity or live custom field keys, each at most once (400 naming the entry). Names are unique per entity (409). The first layout of an entity becomes its default.",
      request: body(CreateLayoutBody),
      responses: { 201: json(LayoutSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await svc.createLayout(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/layouts/{layoutId}",
      operationId: "updateLayout",
      tags,
      summary: "Update a layout",
      description:
        "`isDefault: true` moves the default here; unsetting the default is a 409. The entity cannot change.",
      request: { params: Params, ...body(UpdateLayoutBody) },
      responses: { 200: json(LayoutSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await svc.updateLayout(serviceCtx(c), c.req.valid("param").layoutId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/layouts/{layoutId}",
      operationId: "deleteLayout",
      tags,
      summary: "Delete a layout",
      description: "Permanent. Deleting the default makes the entity's oldest remaining layout the default.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteLayout(serviceCtx(c), c.req.valid("param").layoutId);
      return c.body(null, 204);
    },
  );
