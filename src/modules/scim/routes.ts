import { z } from "@hono/zod-openapi";
import type { AppContext } from "../../env";
import { type AllowedMethods, allowedMethods } from "../../http/allowed-methods";
import { createRouter, defineRoute } from "../../http/router";
import { onScimError, SCIM_CONTENT_TYPE, ScimErrorSchema, scimError } from "../../http/scim-errors";
import { ApiError } from "../../platform/errors";
import { scimCtx } from "./context";
import { listOf, resourceTypes, schemas, serviceProviderConfig } from "./discovery";
import { project } from "./filter";
import * as groups from "./groups";
import { etagOf, type Json } from "./resource";
import * as users from "./users";

const tags = ["SCIM"];
const Resource = z.record(z.string(), z.unknown()).openapi("ScimResource", {
  description: "A SCIM resource (RFC 7643): a User (with the enterprise extension) or a Group.",
});
const ListResponse = z.record(z.string(), z.unknown()).openapi("ScimListResponse", {
  description: "urn:ietf:params:scim:api:messages:2.0:ListResponse: totalResults, startIndex, itemsPerPage, Resources.",
});
const scimJson = (schema: z.ZodType, description: string) => ({
  description,
  content: { [SCIM_CONTENT_TYPE]: { schema } },
});
const VERSION = {
  ETag: { description: "meta.version of the resource; send it back as If-Match.", schema: { type: "string" as const } },
};
const versioned = (description: string) => ({ ...scimJson(Resource, description), headers: VERSION });
const created = (description: string) => ({
  ...versioned(description),
  headers: {
    ...VERSION,
    Location: { description: "meta.location of the new resource.", schema: { type: "string" as const } },
  },
});
const scimBody = { body: { required: true, content: { [SCIM_CONTENT_TYPE]: { schema: Resource } } } };
const Params = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
});
const Projection = {
  attributes: z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "Comma-separated attributes to return (id and schemas always)." }),
  excludedAttributes: z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "Comma-separated attributes to leave out." }),
};
const ListQuery = z.object({
  filter: z.string().max(2000).optional().openapi({
    description:
      'RFC 7644 filter: eq, ne, co, sw, ew, pr, gt, ge, lt, le, and, or, not, value paths; e.g. `userName eq "ada@example.com"`.',
  }),
  // RFC 7644 section 3.4.2.4: a startIndex below 1 is read as 1, a negative count as 0 and a count
  // above the maximum as the maximum; only a value that is not a whole number is a 400.
  startIndex: z.coerce
    .number()
    .int()
    .default(1)
    .transform((v) => Math.max(1, v))
    .openapi({ description: "1-based index of the first result; below 1 is read as 1." }),
  count: z.coerce
    .number()
    .int()
    .default(100)
    .transform((v) => Math.min(200, Math.max(0, v)))
    .openapi({ description: "At most this many results (0..200; more is read as 200, negative as 0)." }),
  ...Projection,
});
const GetQuery = z.object(Projection);

/** application/scim+json, with the ETag of the resource where there is one. */
function scim<S extends 200 | 201 = 200>(c: AppContext, body: Json, status?: S, version?: number) {
  const headers: Record<string, string> = { "content-type": SCIM_CONTENT_TYPE };
  if (version !== undefined) headers.ETag = etagOf(version);
  const meta = body.meta as { location?: string } | undefined;
  if (status === 201 && meta?.location) headers.Location = meta.location;
  return c.json(body, (status ?? 200) as S, headers);
}

const ifMatch = (c: AppContext) => c.req.header("if-match") ?? undefined;
const shaped = (r: Json, q: { attributes?: string; excludedAttributes?: string }) =>
  project(r, q.attributes, q.excludedAttributes);

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
