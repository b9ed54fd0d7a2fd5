import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import {
  CreateCustomFieldBody,
  CustomFieldPage,
  CustomFieldSchema,
  ListCustomFieldsQuery,
  UpdateCustomFieldBody,
} from "./schemas";
import * as svc from "./service";
import { updateCustomField } from "./update";
import { toCustomField } from "./view";

const tags = ["Custom fields"];
const Params = z.object({ customFieldId: idParam("customFieldId", "cfd_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const customFieldsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/custom-fields",
      operationId: "listCustomFields",
      tags,
      summary: "List custom field definitions",
      description: "Live definitions, oldest first; filter by `entity`.",
      request: { query: ListCustomFieldsQuery },
      responses: { 200: json(CustomFieldPage, "A page of definitions") },
    }),
    async (c) => c.json(await svc.listCustomFields(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/custom-fields/{customFieldId}",
      operationId: "getCustomField",
      tags,
      summary: "Get a custom field definition",
      request: { params: Params },
      responses: { 200: json(CustomFieldSchema, "The definition") },
    }),
    async (c) =>
      c.json(toCustomField(await svc.getCustomField(serviceCtx(c), c.req.valid("param").customFieldId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/custom-fields",
      operationId: "createCustomField",
      tags,
      summary: "Create a custom field definition",
      description:
        "Keys are unique per entity among live fields (case-insensitive, 409) and may not be a built-in field name of the entity (400). Dropdown options are trimmed, non-blank, unique case-insensitively, at least one.",
      request: body(CreateCustomFieldBody),
      responses: { 201: json(CustomFieldSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(toCustomField(await svc.createCustomField(serviceCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/custom-fields/{customFieldId}",
      operationId: "updateCustomField",
      tags,
      summary: "Update a custom field definition",
      description:
        "Changing `entity` or `type` once any value exists, or removing a dropdown option still in use, is a 409. Renaming `key` moves the stored values and layout entries in the same write.",
      request: { params: Params, ...body(UpdateCustomFieldBody) },
      responses: { 200: json(CustomFieldSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(
        toCustomField(await updateCustomField(serviceCtx(c), c.req.valid("param").customFieldId, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/custom-fields/{customFieldId}",
      operationId: "deleteCustomField",
      tags,
      summary: "Move a custom field to the trash",
      description: "Stored values and layout entries are kept but hidden until the field is restored.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteCustomField(serviceCtx(c), c.req.valid("param").customFieldId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/custom-fields/{customFieldId}/restore",
      operationId: "restoreCustomField",
      tags,
      summary: "Restore a deleted custom field",
      description: "409 when a live field of the entity has taken its key meanwhile.",
      request: { params: Params },
      responses: { 200: json(CustomFieldSchema, "Restored"), ...errorResponses(409) },
    }),
    async (c) =>
      c.json(toCustomField(await svc.restoreCustomField(serviceCtx(c), c.req.valid("param").customFieldId)), 200),
  );
