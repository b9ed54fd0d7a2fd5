import { type AllowedMethods, allowedMethods } from "../../http/allowed-methods";
import { createRouter, defineRoute } from "../../http/router";
import { onScimError, ScimErrorSchema, scimError } from "../../http/scim-errors";
import { ApiError } from "../../platform/errors";
import { scimCtx } from "./context";
import { listOf, resourceTypes, schemas, serviceProviderConfig } from "./discovery";
import { scimGroupRoutes } from "./group-routes";
import type { Json } from "./resource";
import {
  created,
  GetQuery,
  ifMatch,
  ListQuery,
  ListResponse,
  Params,
  Resource,
  scim,
  scimBody,
  scimJson,
  shaped,
  tags,
  versioned,
} from "./route-shapes";
import * as users from "./users";

const discovery = (
  path: string,
  operationId: "scimGetServiceProviderConfig" | "scimListResourceTypes" | "scimListSchemas",
  summary: string,
) =>
  defineRoute({
    method: "get",
    path,
    operationId,
    tags,
    summary,
    description: "A SCIM route (RFC 7644), under /scim/v2 on the workspace host; docs/scim.md.",
    responses: { 200: scimJson(Resource, summary) },
  });

export const scimRouter = createRouter()
  .openapi(
    discovery("/ServiceProviderConfig", "scimGetServiceProviderConfig", "SCIM service provider configuration"),
    (c) => scim(c, serviceProviderConfig(scimCtx(c).base) as Json),
  )
  .openapi(discovery("/ResourceTypes", "scimListResourceTypes", "SCIM resource types"), (c) =>
    scim(c, listOf(resourceTypes(scimCtx(c).base)) as Json),
  )
  .openapi(discovery("/Schemas", "scimListSchemas", "SCIM schemas"), (c) =>
    scim(c, listOf(schemas(scimCtx(c).base)) as Json),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/Users",
      operationId: "scimListUsers",
      tags,
      summary: "List or filter SCIM Users",
      description: 'Providers probe with `filter=userName eq "…"` before a create; startIndex is 1-based.',
      request: { query: ListQuery },
      responses: { 200: scimJson(ListResponse, "A ListResponse of Users") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      const ctx = scimCtx(c);
      const page = await users.listScimUsers(ctx, q);
      return scim(
        c,
        listOf(
          page.rows.map((r) => shaped(users.presentUser(ctx, r), q)),
          page.total,
          q.startIndex,
        ) as Json,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/Users",
      operationId: "scimCreateUser",
      tags,
      summary: "Provision a SCIM User",
      description:
        "Makes (or links, by externalId then email) the person, and a workspace user when a group mapping gives a role. 409 uniqueness when the userName exists.",
      request: scimBody,
      responses: { 201: created("The User"), 409: scimJson(ScimErrorSchema, "userName taken (scimType uniqueness)") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await users.createScimUser(ctx, await c.req.json());
      return scim(c, users.presentUser(ctx, row), 201, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/Users/{id}",
      operationId: "scimGetUser",
      tags,
      summary: "Read a SCIM User",
      request: { params: Params, query: GetQuery },
      responses: { 200: versioned("The User") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await users.getScimUser(ctx, c.req.valid("param").id);
      return scim(c, shaped(users.presentUser(ctx, row), c.req.valid("query")), 200, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/Users/{id}",
      operationId: "scimReplaceUser",
      tags,
      summary: "Replace a SCIM User",
      description:
        "`active: false` deprovisions (offboarding; nothing is checked in); `If-Match` with meta.version, 412 on mismatch.",
      request: { params: Params, ...scimBody },
      responses: { 200: versioned("The User"), 412: scimJson(ScimErrorSchema, "If-Match names an older version") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await users.replaceScimUser(ctx, c.req.valid("param").id, await c.req.json(), ifMatch(c));
      return scim(c, users.presentUser(ctx, row), 200, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/Users/{id}",
      operationId: "scimPatchUser",
      tags,
      summary: "Patch a SCIM User",
      description:
        'A PatchOp: add, replace, remove (op in any case), with paths and value filters such as `emails[type eq "work"].value`.',
      request: { params: Params, ...scimBody },
      responses: { 200: versioned("The User"), 412: scimJson(ScimErrorSchema, "If-Match names an older version") },
    }),
    async (c) => {
      const ctx = scimCtx(c);
      const row = await users.patchScimUser(ctx, c.req.valid("param").id, await c.req.json(), ifMatch(c));
      return scim(c, users.presentUser(ctx, row), 200, row.version);
    },
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/Users/{id}",
      operationId: "scimDeleteUser",
      tags,
      summary: "Delete a SCIM User",
      description: "Deprovisions (access ends, offboarding starts; nothing is checked in); the person stays.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await users.deleteScimUser(scimCtx(c), c.req.valid("param").id, ifMatch(c));
      return c.body(null, 204);
    },
  )
  // The Groups routes: ./group-routes.ts.
  .route("/", scimGroupRoutes);

scimRouter.onError(onScimError);
// An unknown path under /scim/v2 answers in the SCIM shape too: a 405 with Allow when the path is
// known for other methods, else a 404. The table is read once every route is registered.
let allowed: AllowedMethods | undefined;
scimRouter.all("*", (c) => {
  allowed ??= allowedMethods(scimRouter.routes, ["/"]);
  const path = c.req.path.replace(/^\/scim\/v2/, "") || "/";
  const methods = allowed(path);
  if (methods.length > 0 && !methods.includes(c.req.method.toUpperCase()))
    throw new ApiError("method_not_allowed", `Method not allowed: ${c.req.method}; allowed: ${methods.join(", ")}`, {
      headers: { Allow: methods.join(", ") },
    });
  throw scimError("not_found", undefined, "No such SCIM endpoint");
});
