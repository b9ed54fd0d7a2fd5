import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { sessionCtx } from "./context";
import {
  CreateSessionBody,
  ListSessionsQuery,
  SessionParams as Params,
  SessionPage,
  SessionSchema,
  UpdateSessionBody,
} from "./schemas";
import * as svc from "./service";
import { toSession } from "./view";

const tags = ["Inventory sessions"];
const STATUS_RULES =
  "Statuses: `draft` → `active` (the expected set is taken from the scope) → `completed` (scans written through, report stored, " +
  "`session.completed` emitted); `draft` or `active` → `cancelled`. completed and cancelled are final (409). " +
  "Name, dueAt and assignees can change until the session ends; the scope only while it is a draft (409). Each newly assigned user (not one who assigned themselves) gets a `session.assigned` notification, mailed at once by their preferences (docs/notifications.md).";

export const sessionsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions",
      operationId: "listSessions",
      tags,
      summary: "List sessions",
      description: "Newest first.",
      request: { query: ListSessionsQuery },
      responses: { 200: json(SessionPage, "A page of sessions") },
    }),
    async (c) => c.json(await svc.listSessions(sessionCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/active",
      operationId: "listActiveSessions",
      tags,
      summary: "Active sessions",
      description: "Sessions currently taking scans, newest first.",
      request: { query: ListSessionsQuery.omit({ status: true }) },
      responses: { 200: json(SessionPage, "A page of active sessions") },
    }),
    async (c) => c.json(await svc.listSessions(sessionCtx(c), { ...c.req.valid("query"), status: "active" }), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}",
      operationId: "getSession",
      tags,
      summary: "Get a session",
      request: { params: Params },
      responses: { 200: json(SessionSchema, "The session") },
    }),
    async (c) => c.json(toSession(await svc.getSession(sessionCtx(c), c.req.valid("param").sessionId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions",
      operationId: "createSession",
      tags,
      summary: "Create a session",
      description: `A draft unless \`status: "active"\`. Unknown locationId, categoryId or assignees: 400. ${STATUS_RULES}`,
      request: body(CreateSessionBody),
      responses: { 201: json(SessionSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(toSession(await svc.createSession(sessionCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/sessions/{sessionId}",
      operationId: "updateSession",
      tags,
      summary: "Update a session or change its status",
      description: STATUS_RULES,
      request: { params: Params, ...body(UpdateSessionBody) },
      responses: { 200: json(SessionSchema, "Updated"), ...errorResponses(409, 415, 503) },
    }),
    async (c) =>
      c.json(
        toSession(await svc.updateSession(sessionCtx(c), c.req.valid("param").sessionId, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/sessions/{sessionId}",
      operationId: "deleteSession",
      tags,
      summary: "Delete a draft or cancelled session",
      description:
        "Active and completed sessions cannot be deleted (409): a completed session is the audit record. Scan records stay in the assets' history.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await svc.deleteSession(sessionCtx(c), c.req.valid("param").sessionId);
      return c.body(null, 204);
    },
  );
