import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import {
  CreatedScimTokenSchema,
  CreateScimGroupMappingBody,
  CreateScimTokenBody,
  ListScimGroupMappingsQuery,
  ListScimTokensQuery,
  ScimGroupMappingPage,
  ScimGroupMappingSchema,
  ScimTokenPage,
  UpdateScimGroupMappingBody,
} from "./admin-schemas";
import { scimCtx } from "./context";
import * as rules from "./mapping-rules";
import * as mappings from "./mappings";
import * as tokens from "./tokens";

const tags = ["SCIM tokens and mappings"];
const TokenParams = z.object({ id: idParam("id", "sct_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const MappingParams = z.object({ id: idParam("id", "sgm_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const scimAdminRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/scim-tokens",
      operationId: "listScimTokens",
      tags,
      summary: "List SCIM tokens",
      description: "Newest first; revoked tokens included. Tokens and hashes are never returned.",
      request: { query: ListScimTokensQuery },
      responses: { 200: json(ScimTokenPage, "A page of SCIM tokens") },
    }),
    async (c) => c.json(await tokens.listScimTokens(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/scim-tokens",
      operationId: "createScimToken",
      tags,
      summary: "Create a SCIM token",
      description:
        "For the identity provider's provisioning (docs/scim.md). The `token` is shown once; only its hash is stored. It is accepted on /scim/v2 only, and nothing else is accepted there.",
      request: body(CreateScimTokenBody),
      responses: { 201: json(CreatedScimTokenSchema, "Created; the token is shown once") },
    }),
    async (c) => c.json(await tokens.createScimToken(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/scim-tokens/{id}",
      operationId: "revokeScimToken",
      tags,
      summary: "Revoke a SCIM token",
      description: "Takes effect immediately: the token gets 401 from then on. Idempotent.",
      request: { params: TokenParams },
      responses: { 204: { description: "Revoked" } },
    }),
    async (c) => {
      await tokens.revokeScimToken(serviceCtx(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/scim-group-mappings",
      operationId: "listScimGroupMappings",
      tags,
      summary: "List SCIM group mappings",
      description: "What membership of each identity-provider group gives: a role, a location, a department.",
      request: { query: ListScimGroupMappingsQuery },
      responses: { 200: json(ScimGroupMappingPage, "A page of mappings") },
    }),
    async (c) => c.json(await mappings.listScimGroupMappings(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/scim-group-mappings",
      operationId: "createScimGroupMapping",
      tags,
      summary: "Map a SCIM group",
      description:
        "Members of the group (by displayName) get the role as workspace users (the highest among their groups), and the location and department on their person. The role applies at once to the group's current members (user.role_changed); the location and department with each member's next change.",
      request: body(CreateScimGroupMappingBody),
      responses: { 201: json(ScimGroupMappingSchema, "The mapping") },
    }),
    async (c) => c.json(await rules.createMapping(scimCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/scim-group-mappings/{id}",
      operationId: "updateScimGroupMapping",
      tags,
      summary: "Change a SCIM group mapping",
      description:
        "Changes what the group gives. The group's current members get the new role at once (raised, or lowered to the highest role their other groups give; no role left ends their access), each with user.role_changed.",
      request: { params: MappingParams, ...body(UpdateScimGroupMappingBody) },
      responses: { 200: json(ScimGroupMappingSchema, "The mapping") },
    }),
    async (c) => c.json(await rules.updateMapping(scimCtx(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/scim-group-mappings/{id}",
      operationId: "deleteScimGroupMapping",
      tags,
      summary: "Delete a SCIM group mapping",
      description:
        "The group's current members lose what it gave at once: their role is lowered to the highest role their other groups give, and no role left ends their access (user.role_changed).",
      request: { params: MappingParams },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await rules.deleteMapping(scimCtx(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );
