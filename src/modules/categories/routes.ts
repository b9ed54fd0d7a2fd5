import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import { CategoryPage, CategorySchema, CreateCategoryBody, ListCategoriesQuery, UpdateCategoryBody } from "./schemas";
import * as svc from "./service";
import { toCategory } from "./view";

const tags = ["Categories"];
const Params = z.object({ categoryId: idParam("categoryId", "cat_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const categoriesRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/categories",
      operationId: "listCategories",
      tags,
      summary: "List categories",
      request: { query: ListCategoriesQuery },
      responses: { 200: json(CategoryPage, "A page of categories, by name") },
    }),
    async (c) => c.json(await svc.listCategories(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/categories/default",
      operationId: "getDefaultCategory",
      tags,
      summary: "The workspace's default category",
      responses: { 200: json(CategorySchema, "The default category") },
    }),
    async (c) => c.json(toCategory(await svc.getDefaultCategory(serviceCtx(c))), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/categories/{categoryId}",
      operationId: "getCategory",
      tags,
      summary: "Get a category",
      request: { params: Params },
      responses: { 200: json(CategorySchema, "The category") },
    }),
    async (c) => c.json(toCategory(await svc.getCategory(serviceCtx(c), c.req.valid("param").categoryId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/categories",
      operationId: "createCategory",
      tags,
      summary: "Create a category",
      request: body(CreateCategoryBody),
      responses: { 201: json(CategorySchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(toCategory(await svc.createCategory(serviceCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/categories/{categoryId}",
      operationId: "updateCategory",
      tags,
      summary: "Update a category",
      request: { params: Params, ...body(UpdateCategoryBody) },
      responses: { 200: json(CategorySchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(
        toCategory(await svc.updateCategory(serviceCtx(c), c.req.valid("param").categoryId, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/categories/{categoryId}",
      operationId: "deleteCategory",
      tags,
      summary: "Move a category to the trash",
      description:
        "The default category, and categories that live assets or live stock items use, cannot be deleted (409; `details.assets` or `details.stockItems` says how many).",
      request: { params: Params },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await svc.deleteCategory(serviceCtx(c), c.req.valid("param").categoryId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/categories/{categoryId}/restore",
      operationId: "restoreCategory",
      tags,
      summary: "Restore a deleted category",
      description: "409 when a live category has taken its name meanwhile.",
      request: { params: Params },
      responses: { 200: json(CategorySchema, "Restored"), ...errorResponses(409) },
    }),
    async (c) => c.json(toCategory(await svc.restoreCategory(serviceCtx(c), c.req.valid("param").categoryId)), 200),
  );
