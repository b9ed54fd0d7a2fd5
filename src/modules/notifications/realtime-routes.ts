import { createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { ApiError } from "../../platform/errors";
import { workspaceApiUrl } from "../../tenancy/host";
import { notificationCtx } from "./context";
import { userRealtime } from "./realtime";
import { RealtimeQuery, RealtimeTicket } from "./schemas";
import { consumeTicket, issueTicket } from "./tickets";

const tags = ["Notifications"];

const CHANNEL_DOC =
  'Server-to-client JSON text messages: `{type: "ready"}` once the socket is registered, then ' +
  '`{type: "notification.created" | "notification.updated", notification: Notification}` with the full record after each change of one of the user\'s notifications. ' +
  "Send `ping` to keep the connection alive (answered `pong`). Delivery is best effort: after a reconnect, reload GET /notifications.";

export const realtimeRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/notifications/realtime-ticket",
      operationId: "createRealtimeTicket",
      tags,
      summary: "Get a ticket for the realtime WebSocket",
      description:
        "Browsers cannot send Authorization headers on a WebSocket: this single-use ticket, valid for `expiresIn` seconds, authenticates GET /notifications/realtime instead.",
      responses: { 201: json(RealtimeTicket, "The ticket and the URL to open") },
    }),
    async (c) => {
      const ctx = notificationCtx(c);
      const { ticket, expiresIn } = await issueTicket(ctx.db, ctx.userId);
      // This route's sibling on the configured workspace host, never the request's Host header.
      const url = new URL(workspaceApiUrl(c.env, c.var.tenant.slug, "/notifications/realtime"));
      url.protocol = url.protocol === "http:" ? "ws:" : "wss:";
      url.searchParams.set("ticket", ticket);
      return c.json({ ticket, url: url.toString(), expiresIn }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/notifications/realtime",
      operationId: "openRealtimeChannel",
      tags,
      summary: "Open my realtime notification channel (WebSocket)",
      description: `A WebSocket upgrade (\`Upgrade: websocket\`) authenticated by a ticket from POST /notifications/realtime-ticket, not by a header. Without the upgrade header: 400; an invalid, expired or used ticket: 401. ${CHANNEL_DOC}`,
      request: { query: RealtimeQuery },
      responses: {
        101: { description: "Switching Protocols: the WebSocket of the ticket's user" },
        ...errorResponses(401),
      },
    }),
    async (c) => {
      if (c.req.header("upgrade")?.toLowerCase() !== "websocket")
        throw new ApiError("bad_request", "This route is a WebSocket: send `Upgrade: websocket`");
      const userId = await consumeTicket(c.var.db, c.req.valid("query").ticket);
      // The one fetch a realtime object answers: the upgrade, handed to the user's object.
      return userRealtime(c.env, c.var.tenant.id, userId).fetch(c.req.raw);
    },
  );
