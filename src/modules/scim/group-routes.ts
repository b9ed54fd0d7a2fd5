import { createRouter, defineRoute } from "../../http/router";
import { scimCtx } from "./context";
import { listOf } from "./discovery";
import * as groups from "./groups";
import { etagOf, type Json } from "./resource";
import {
  created,
  GetQuery,
  ifMatch,
  ListQuery,
  ListResponse,
  Params,
  scim,
  scimBody,
  scimJson,
  shaped,
  tags,
  VERSION,
  versioned,
} from "./route-shapes";

/** /scim/v2/Groups (RFC 7644), mounted on the SCIM router (./routes.ts), which answers their errors in SCIM's shape. */
export const scimGroupRoutes = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/Groups",
      operationId: "scimListGroups",
      tags,
      summary: "List or filter SCIM Groups",
      request: { query: ListQuery },
      responses: { 200: scimJson(ListResponse, "A ListResponse of Groups") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      const ctx = scimCtx(c);
      const page = await groups.listScimGroups(ctx, q);
      return scim(
        c,
        listOf(
          page.rows.map((r) => shaped(groups.presentGroup(ctx, r), q)),
          page.total,
          q.startIndex,
        ) as Json,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/Groups",
      operationId: "scimCreateGroup",
      tags,
      summary: "Create a SCIM Group",
      description: "Members get what the group's mapping gives (role, location, department).",
      request: scimBody,
      responses: { 201: created("The Group") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await groups.createScimGroup(ctx, await c.req.json());
      return scim(c, groups.presentGroup(ctx, row), 201, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/Groups/{id}",
      operationId: "scimGetGroup",
      tags,
      summary: "Read a SCIM Group",
      request: { params: Params, query: GetQuery },
      responses: { 200: versioned("The Group") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await groups.getScimGroup(ctx, c.req.valid("param").id);
      return scim(c, shaped(groups.presentGroup(ctx, row), c.req.valid("query")), 200, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/Groups/{id}",
      operationId: "scimReplaceGroup",
      tags,
      summary: "Replace a SCIM Group",
      request: { params: Params, ...scimBody },
      responses: { 200: versioned("The Group") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await groups.replaceScimGroup(ctx, c.req.valid("param").id, await c.req.json(), ifMatch(c));
      return scim(c, groups.presentGroup(ctx, row), 200, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/Groups/{id}",
      operationId: "scimPatchGroup",
      tags,
      summary: "Patch a SCIM Group",
      description: 'Members added or removed as value arrays (Entra) or by a `members[value eq "…"]` path (Okta). 204.',
      request: { params: Params, ...scimBody },
      responses: { 204: { description: "Patched", headers: VERSION } },
    }),
    async (c) => {
      const row = await groups.patchScimGroup(scimCtx(c), c.req.valid("param").id, await c.req.json(), ifMatch(c));
      c.header("ETag", etagOf(row.version));
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/Groups/{id}",
      operationId: "scimDeleteGroup",
      tags,
      summary: "Delete a SCIM Group",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await groups.deleteScimGroup(scimCtx(c), c.req.valid("param").id, ifMatch(c));
      return c.body(null, 204);
    },
  );
