import { z } from "@hono/zod-openapi";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { endAdminSession, startAdminSession } from "../../access/admin-sessions";
import { ADMIN_COOKIE } from "../../access/authenticate";
import { ADMIN_TTL_SECONDS } from "../../access/jwt";
import { HEADERS } from "../../http/response-headers";
import { createRouter, defineRoute, errorResponses, jsonBody, jsonContent } from "../../http/router";
import { idParam } from "../../platform/schemas";
import { listShards } from "../../tenancy/fill";
import { provisionTenant } from "../../tenancy/provision";
import { exportWorkspace } from "./export";
import { latestMove, type MoveMessage, startMove } from "./move";
import {
  AdminLoginBody,
  CreatedTenantSchema,
  CreateTenantBody,
  DeleteTenantBody,
  ListTenantsQuery,
  MoveTenantBody,
  ShardPage,
  TenantMoveSchema,
  TenantPage,
  TenantSchema,
  UpdateTenantBody,
  WorkspaceExportSchema,
} from "./schemas";
import * as svc from "./service";
import { toMove, toTenant } from "./view";

const tags = ["Platform admin"];
const Params = z.object({ tenantId: idParam("tenantId", "ten_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: "Strict", path: "/api/v1/admin" } as const;

export const adminRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/admin/auth/login",
      operationId: "adminLogin",
      tags,
      summary: "Platform admin sign-in",
      description: "Sets the `admin_session` cookie (HttpOnly; Secure; SameSite=Strict).",
      request: jsonBody(AdminLoginBody),
      responses: {
        200: {
          ...jsonContent(z.object({ email: z.string(), expiresIn: z.number() }), "Signed in"),
          headers: {
            "Set-Cookie": HEADERS.setCookie(
              "The platform-admin session: `admin_session=<session>; Path=/api/v1/admin; HttpOnly; Secure; SameSite=Strict; Max-Age=<expiresIn>`.",
            ),
          },
        },
        ...errorResponses(401),
      },
    }),
    async (c) => {
      const { email, password } = c.req.valid("json");
      svc.checkAdminCredentials(c.env, email, password);
      setCookie(c, ADMIN_COOKIE, await startAdminSession(c.env, email.toLowerCase()), {
        ...COOKIE_OPTIONS,
        maxAge: ADMIN_TTL_SECONDS,
      });
      return c.json({ email: email.toLowerCase(), expiresIn: ADMIN_TTL_SECONDS }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/admin/auth/logout",
      operationId: "adminLogout",
      tags,
      summary: "Platform admin sign-out",
      description: "Ends the session server-side (a copy of the cookie stops working) and clears the cookie.",
      responses: {
        204: {
          description: "Signed out",
          headers: { "Set-Cookie": HEADERS.setCookie("Clears the `admin_session` cookie (`Max-Age=0`).") },
        },
      },
    }),
    async (c) => {
      await endAdminSession(c.env, getCookie(c, ADMIN_COOKIE));
      deleteCookie(c, ADMIN_COOKIE, COOKIE_OPTIONS);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/admin/tenants",
      operationId: "adminListTenants",
      tags,
      summary: "List workspaces",
      request: { query: ListTenantsQuery },
      responses: { 200: jsonContent(TenantPage, "A page of workspaces") },
    }),
    async (c) => c.json(await svc.listTenants(c.env, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/admin/shards",
      operationId: "adminListShards",
      tags,
      summary: "List shards and how full they are",
      description:
        "The shards of the deployment (docs/deploying.md#shards) by name: each one's pool size and workspaces. A deployment without a router is the one shard `main`. A shard appears once it has reported in (the router asks each one when it places a workspace; the answering shard always reports).",
      request: { query: ListTenantsQuery },
      responses: { 200: jsonContent(ShardPage, "A page of shards") },
    }),
    async (c) => c.json(await listShards(c.env, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/admin/tenants",
      operationId: "adminCreateTenant",
      tags,
      summary: "Create a workspace",
      description:
        "Claims a pool database, migrates it, creates the owner, a first API key and the default category and location. With shards, the router places the workspace on the shard with the most room, among those of the `jurisdiction` (required) and the `locationHint` (preferred) when given (docs/deploying.md#regions).",
      request: jsonBody(CreateTenantBody),
      responses: {
        201: jsonContent(CreatedTenantSchema, "Created; the API key (and a generated password) are shown once"),
        ...errorResponses(409, 415, 503),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const res = await provisionTenant(c.env, input);
      return c.json(
        {
          tenantId: res.tenant.id,
          slug: res.tenant.slug,
          plan: res.tenant.plan,
          owner: { email: res.owner.email, ...(res.owner.password ? { password: res.owner.password } : {}) },
          apiKey: res.apiKey,
          shard: res.tenant.shard,
        },
        201,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/admin/tenants/{tenantId}",
      operationId: "adminGetTenant",
      tags,
      summary: "Get a workspace",
      request: { params: Params },
      responses: { 200: jsonContent(TenantSchema, "The workspace") },
    }),
    async (c) => c.json(toTenant(await svc.getTenant(c.env, c.req.valid("param").tenantId)), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/admin/tenants/{tenantId}",
      operationId: "adminUpdateTenant",
      tags,
      summary: "Change a workspace's plan or status",
      description: "A suspended workspace answers 404 on its host until reactivated.",
      request: { params: Params, ...jsonBody(UpdateTenantBody) },
      responses: { 200: jsonContent(TenantSchema, "Updated"), ...errorResponses(415) },
    }),
    async (c) =>
      c.json(toTenant(await svc.updateTenant(c.env, c.req.valid("param").tenantId, c.req.valid("json"))), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/admin/tenants/{tenantId}/export",
      operationId: "adminExportTenant",
      tags,
      summary: "Export a workspace's data (JSON)",
      description:
        "Every table of the workspace as `{ workspace, exportedAt, tables: { <table>: [rows] } }`, streamed. Credentials (password, key and token hashes, webhook signing secrets, refresh tokens, tickets, SSO state, the idempotency store) are left out; files stay in R2 under `tenants/<tenantId>/`.",
      request: { params: Params },
      responses: {
        200: {
          ...jsonContent(
            WorkspaceExportSchema,
            "The export: an `application/json` attachment `{ workspace, exportedAt, tables: { <table>: [rows] } }`",
          ),
          headers: {
            "Content-Disposition": HEADERS.contentDisposition(
              'An attachment named `<slug>-export-<YYYY-MM-DD>.json`, e.g. `attachment; filename="acme-export-2026-11-26.json"`.',
            ),
          },
        },
      },
    }),
    async (c) => {
      const tenant = await svc.getTenantHere(c.env, c.req.valid("param").tenantId);
      // Streamed, not built in memory: a plain Response (the typed c.json would buffer it). Its
      // shape is WorkspaceExportSchema's, which the contract check of the tests verifies.
      const streamed = new Response(exportWorkspace(c.env, tenant), {
        headers: {
          "content-type": "application/json",
          "content-disposition": `attachment; filename="${tenant.slug}-export-${new Date().toISOString().slice(0, 10)}.json"`,
        },
      });
      return streamed as never; // typed routes expect c.json's TypedResponse; the stream is its JSON
    },
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/admin/tenants/{tenantId}",
      operationId: "adminDeleteTenant",
      tags,
      summary: "Delete a workspace for good",
      description:
        "Repeat the workspace's slug in the body. The workspace stops answering at once; its files are deleted, its database is wiped and returned to the pool, and the slug is free again. Scans an inventory session had not yet written through are dropped, never written into the database's next workspace. Export it first if its data matters. 400 when the slug does not match.",
      request: { params: Params, ...jsonBody(DeleteTenantBody) },
      responses: { 204: { description: "Deleted" }, ...errorResponses(415) },
    }),
    async (c) => {
      await svc.deleteTenant(c.env, c.req.valid("param").tenantId, c.req.valid("json").slug);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/admin/tenants/{tenantId}/move",
      operationId: "adminMoveTenant",
      tags,
      summary: "Move a workspace to another shard",
      description:
        "Starts the move and answers at once; follow it with GET on the same path (docs/deploying.md#moving-a-workspace-between-shards). The workspace's database is copied while it works as usual; then, for the switch only, writes and scans are refused with 503 and `Retry-After: 1` (reads go on) while the rows written meanwhile, the open inventory sessions' state and the pending outbox and deliveries (rows of the database) are copied and the registry names the new shard; the old copy is then wiped and its pool database released. A move that fails before the switch is rolled back: the workspace stays where it was, nothing lost. A move whose Worker stopped midway (a deploy, a crash) is rolled back, or finished when it was retiring, by the next cron run or by the next POST here once it has shown no progress for a while. 400 for an unknown shard, the workspace's own, or a shard of another D1 jurisdiction (a move keeps to the workspace's jurisdiction; another location hint is fine); 409 while a move of the workspace runs; 503 when the destination shard does not answer.",
      request: { params: Params, ...jsonBody(MoveTenantBody) },
      responses: {
        202: jsonContent(TenantMoveSchema, "The move, accepted (`copying`)"),
        ...errorResponses(409, 415, 503),
      },
    }),
    async (c) => {
      const move = await startMove(c.env, c.req.valid("param").tenantId, c.req.valid("json").toShard);
      await c.env.MOVES.send({ moveId: move.id, tenantId: move.tenantId } satisfies MoveMessage);
      return c.json(toMove(move), 202);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/admin/tenants/{tenantId}/move",
      operationId: "adminGetTenantMove",
      tags,
      summary: "The workspace's latest move",
      description:
        "Its state and figures: rows copied, rows copied again during the switch, sessions carried, how long writes were refused. 404 when the workspace never moved.",
      request: { params: Params },
      responses: { 200: jsonContent(TenantMoveSchema, "The latest move") },
    }),
    async (c) => {
      const { tenantId } = c.req.valid("param");
      await svc.getTenant(c.env, tenantId);
      return c.json(toMove(await latestMove(c.env, tenantId)), 200);
    },
  );
