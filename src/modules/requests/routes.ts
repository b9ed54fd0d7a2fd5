import type { AppContext } from "../../env";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { ApiError } from "../../platform/errors";
import { approveRequest, declineRequest } from "./decide";
import {
  ApprovalBody,
  ApprovedRequestSchema,
  CreateRequestBody,
  DecisionBody,
  ListRequestsQuery,
  RequestPage,
  RequestParams,
  RequestSchema,
  tags,
} from "./schemas";
import { cancelRequest, createRequest, listRequests, type RequestsCtx, requireRequest } from "./service";
import { toRequest } from "./view";

/** The request context: the service context plus the signed-in user (the policy makes these JWT-only). */
function requestsCtx(c: AppContext): RequestsCtx {
  const p = c.var.principal;
  if (p.kind !== "user") throw new ApiError("forbidden", "Requests are made and answered by signed-in users");
  return { ...serviceCtx(c), caller: { userId: p.userId, email: p.email, role: p.role }, env: c.env };
}

const optional = <T>(schema: T) => ({ body: { required: false, content: { "application/json": { schema } } } });

const ANSWER =
  "409 when the request is no longer open (answered, cancelled or expired: `details.status`), or when what it asks for cannot be done now (checked out, booked, retired, not enough stock on hand...): the request then stays open.";

export const requestsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/requests",
      operationId: "createRequest",
      tags,
      summary: "Ask for an asset or a kit (now or for a window), or for units of a stock item (now)",
      description:
        "Exactly one of assetId, kitId or stockItemId (400 otherwise). The caller's person (the live person with their email) will hold it. The self-service role (requester) may ask only for requestable assets (a kit: every item requestable); a stock item must be requestable for every role. A stock request is for now only (stock is not booked: a window is 400) and reserves nothing: what is on hand is checked at approval. Owners and admins are notified (in the app, and by mail at once by their preferences); `request.created` is sent.",
      request: body(CreateRequestBody),
      responses: { 201: json(RequestSchema, "The open request"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await createRequest(requestsCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/requests",
      operationId: "listRequests",
      tags,
      summary: "List requests (the admins' queue with status=open)",
      description: "Newest first. The self-service role sees only its own requests.",
      request: { query: ListRequestsQuery },
      responses: { 200: json(RequestPage, "A page of requests") },
    }),
    async (c) => c.json(await listRequests(requestsCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/requests/{requestId}",
      operationId: "getRequest",
      tags,
      summary: "Get a request",
      request: { params: RequestParams },
      responses: { 200: json(RequestSchema, "The request") },
    }),
    async (c) => c.json(toRequest(await requireRequest(requestsCtx(c), c.req.valid("param").requestId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/requests/{requestId}/approve",
      operationId: "approveRequest",
      tags,
      summary: "Approve a request: the checkout, booking or stock issue is made in the same write",
      description: `Exactly one answer takes effect. A checkout to the requester's person under an agreement records its pending hand-over in that write too (\`handover\`). A stock request issues its quantity to the requester's person (returnable or consumed, as the item says) from \`locationId\` (this body's, else the request's, else the location with the most on hand); 409 naming what is on hand when there is not enough. ${ANSWER}`,
      request: { params: RequestParams, ...optional(ApprovalBody) },
      responses: { 200: json(ApprovedRequestSchema, "The approved request"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await approveRequest(requestsCtx(c), c.req.valid("param").requestId, c.req.valid("json") ?? {}), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/requests/{requestId}/decline",
      operationId: "declineRequest",
      tags,
      summary: "Decline a request, with a note",
      description: `Exactly one answer takes effect. ${ANSWER}`,
      request: { params: RequestParams, ...optional(DecisionBody) },
      responses: { 200: json(RequestSchema, "The declined request"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(await declineRequest(requestsCtx(c), c.req.valid("param").requestId, c.req.valid("json") ?? {}), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/requests/{requestId}/cancel",
      operationId: "cancelRequest",
      tags,
      summary: "Cancel your own open request",
      request: { params: RequestParams },
      responses: { 200: json(RequestSchema, "The cancelled request"), ...errorResponses(409) },
    }),
    async (c) => c.json(await cancelRequest(requestsCtx(c), c.req.valid("param").requestId), 200),
  );
