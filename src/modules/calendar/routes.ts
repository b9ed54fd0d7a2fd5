import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { workspaceApiUrl } from "../../tenancy/host";
import { MAX_FEEDS_PER_USER } from "./feed-store";
import {
  CalendarFeedPage,
  CreateCalendarFeedBody,
  CreatedCalendarFeedSchema,
  FeedFileParams,
  FeedParams,
  ListFeedsQuery,
  tags,
} from "./schemas";
import { createFeed, listFeeds, MAX_FEED_EVENTS, renderFeed, revokeFeed } from "./service";

export const calendarRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/calendar-feeds",
      operationId: "createCalendarFeed",
      tags,
      summary: "Create an iCalendar feed of bookings",
      description: `A feed URL for calendar apps (which cannot send headers, so the URL carries a secret). It shows the workspace's bookings, or one person's, from 90 days back to a year ahead (at most ${MAX_FEED_EVENTS} events). The feed belongs to the signed-in user: it stops working when they are deactivated or revoke it. At most ${MAX_FEEDS_PER_USER} feeds per user.`,
      request: body(CreateCalendarFeedBody),
      responses: {
        201: json(CreatedCalendarFeedSchema, "Created; `url` is shown only now"),
        ...errorResponses(409, 415),
      },
    }),
    async (c) => {
      const feed = await createFeed(serviceCtx(c), c.req.valid("json"), (token) =>
        workspaceApiUrl(c.env, c.var.tenant.slug, `/calendar/${token}.ics`),
      );
      return c.json(feed, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/calendar-feeds",
      operationId: "listCalendarFeeds",
      tags,
      summary: "List your calendar feeds",
      description: "The signed-in user's feeds, newest first (their URLs are not shown again).",
      request: { query: ListFeedsQuery },
      responses: { 200: json(CalendarFeedPage, "A page of feeds") },
    }),
    async (c) => c.json(await listFeeds(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/calendar-feeds/{feedId}",
      operationId: "revokeCalendarFeed",
      tags,
      summary: "Revoke a calendar feed",
      description: "Its URL answers 404 from now on. A user revokes their own feeds.",
      request: { params: FeedParams },
      responses: { 204: { description: "Revoked" } },
    }),
    async (c) => {
      await revokeFeed(serviceCtx(c), c.req.valid("param").feedId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/calendar/{file}",
      operationId: "getCalendarFeed",
      tags,
      summary: "An iCalendar feed (the URL from POST /calendar-feeds)",
      description:
        "RFC 5545 text, no Authorization header: the URL's secret is the credential. An unknown or revoked feed, or one whose user is deactivated, answers 404.",
      request: { params: FeedFileParams },
      responses: {
        200: {
          description: "The calendar",
          headers: {
            "Cache-Control": HEADERS.cacheControl(
              "`private, max-age=300`: the URL is a credential, so private caches only, and briefly, so a revoked feed stops soon.",
            ),
            "X-Content-Type-Options": HEADERS.noSniff,
          },
          content: { "text/calendar": { schema: z.string() } },
        },
        ...errorResponses(404),
      },
    }),
    async (c) => {
      const token = c.req.valid("param").file.replace(/\.ics$/, "");
      const text = await renderFeed(c.var.db, token, (id) =>
        workspaceApiUrl(c.env, c.var.tenant.slug, `/bookings/${id}`),
      );
      return c.body(text, 200, {
        "content-type": "text/calendar; charset=utf-8",
        // The URL is a credential: private caches only, and short, so a revoked feed stops soon.
        "cache-control": "private, max-age=300",
        "x-content-type-options": "nosniff",
      });
    },
  );
