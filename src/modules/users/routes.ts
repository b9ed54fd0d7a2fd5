import { z } from "@hono/zod-openapi";
import type { AppContext } from "../../env";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import { hostOrigin } from "../../tenancy/host";
import { createInvite, listInvites, revokeInvite } from "./invites";
import {
  CreatedInviteSchema,
  CreateInviteBody,
  InvitePage,
  ListInvitesQuery,
  ListUsersQuery,
  UpdateUserBody,
  UserPage,
  UserSchema,
} from "./schemas";
import { type Acting, listUsers, updateUser } from "./service";
import { toInvite, toUser } from "./view";

const tags = ["Users"];
const UserParams = z.object({ userId: idParam("userId", "usr_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const InviteParams = z.object({ inviteId: idParam("inviteId", "inv_01jd3k4m5n6p7q8r9s0t1v2w3x") });

function acting(c: AppContext): Acting {
  const p = c.var.principal;
  return { role: p.kind === "platformAdmin" ? "owner" : p.role, plan: c.var.tenant.plan };
}

const LIMITS_NOTE =
  "Plan limits: seats (active users + open invites) and admins (owners + admins, incl. open invites for those roles); exceeding one answers 403 `plan_required` with details `{ limit, current, resource }`.";

export const usersRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/users",
      operationId: "listUsers",
      tags,
      summary: "List the workspace's users",
      request: { query: ListUsersQuery },
      responses: { 200: json(UserPage, "A page of users, oldest first") },
    }),
    async (c) => c.json(await listUsers(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/users/{userId}",
      operationId: "updateUser",
      tags,
      summary: "Change a user's role, status or name",
      description: `Only an owner may change an owner or grant the owner role (403). The last active owner cannot be demoted or deactivated (409). Deactivation signs the user out everywhere (refresh tokens revoked, access tokens refused). ${LIMITS_NOTE}`,
      request: { params: UserParams, ...body(UpdateUserBody) },
      responses: { 200: json(UserSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(toUser(await updateUser(serviceCtx(c), acting(c), c.req.valid("param").userId, c.req.valid("json"))), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/users/invites",
      operationId: "listInvites",
      tags,
      summary: "List open invites",
      description: "Invites not yet accepted, revoked or expired.",
      request: { query: ListInvitesQuery },
      responses: { 200: json(InvitePage, "A page of open invites") },
    }),
    async (c) => c.json(await listInvites(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/users/invites",
      operationId: "createInvite",
      tags,
      summary: "Invite a user",
      description: `No email is sent: the response carries the invite \`token\` (shown once, stored hashed) for the caller to pass on. Hand the invitee \`acceptUrl\`: it opens the field app's join page (set a password, or continue with the workspace's SSO), which accepts with POST /auth/invites/accept. Invites expire after 7 days. 409 when a user or an open invite with that email exists; only an owner may invite an owner. ${LIMITS_NOTE}`,
      request: body(CreateInviteBody),
      responses: { 201: json(CreatedInviteSchema, "Created; the token is shown once"), ...errorResponses(409, 415) },
    }),
    async (c) => {
      const { invite, token } = await createInvite(serviceCtx(c), acting(c), c.req.valid("json"));
      // Built from the configured base URL, never from the request's Host header. The token rides in
      // the fragment, which browsers never send to a server or in a Referer.
      const acceptUrl = `${hostOrigin(c.env, c.var.tenant.slug)}/join#token=${encodeURIComponent(token)}`;
      return c.json({ ...toInvite(invite), token, acceptUrl }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/users/invites/{inviteId}",
      operationId: "revokeInvite",
      tags,
      summary: "Revoke an invite",
      description: "Idempotent for revoked invites; 409 for an accepted one.",
      request: { params: InviteParams },
      responses: { 204: { description: "Revoked" }, ...errorResponses(409) },
    }),
    async (c) => {
      await revokeInvite(serviceCtx(c), c.req.valid("param").inviteId);
      return c.body(null, 204);
    },
  );
