import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";
import { workspaceApiUrl } from "../../tenancy/host";
import { settingsOf } from "../../tenancy/registry";
import { createFeed, listFeeds, renderRenewalFeed, revokeFeed } from "./feed";
import { localDay, renewalsList } from "./renewals";
import { compliance, costReport, trueUp } from "./reports";
import { decide, getReview, openReview } from "./reviews";
import {
  CompliancePage,
  ComplianceQuery,
  CostReport,
  CreatedFeedSchema,
  CreateFeedBody,
  CreateReviewBody,
  DecideBody,
  FeedFileParams,
  FeedSchema,
  ProductParams,
  RenewalPage,
  RenewalsQuery,
  ReviewParams,
  ReviewSchema,
  TrueUpSchema,
  tags,
} from "./schemas";

const TrueUpPage = pageOf(TrueUpSchema, "LicenceTrueUpPage");
const FeedPage = pageOf(FeedSchema, "LicenceFeedPage");
const FeedParams = z.object({ feedId: idParam("feedId", "lcf_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const licenceReportsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-renewals",
      operationId: "listLicenceRenewals",
      tags,
      summary: "Terms that end or renew in the next `days` days",
      description:
        "Lots whose `endDate` falls from today (the workspace's day) to `days` ahead (default 90), soonest first, with `totals`: the cost of the whole window per currency.",
      request: { query: RenewalsQuery },
      responses: { 200: json(RenewalPage, "A page of lots") },
    }),
    async (c) =>
      c.json(
        await renewalsList(c.var.db, localDay(new Date(), settingsOf(c.var.tenant).timezone), c.req.valid("query")),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-true-up",
      operationId: "getLicenceTrueUp",
      tags,
      summary: "True-up: seats used vs owned, per product and per lot",
      request: { query: z.object({ ...pageQuery, productId: z.string().max(64).optional() }) },
      responses: { 200: json(TrueUpPage, "A page of products") },
    }),
    async (c) => c.json(await trueUp(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-reports/compliance",
      operationId: "getLicenceCompliance",
      tags,
      summary: "Compliance: over-assigned, under-used and expiring lots",
      description:
        "Every live lot by id with its seats, open seats, seats over the count, seats unused for 30 days and whether it ends within 30 days without renewing itself; `only` keeps one kind of finding.",
      request: { query: ComplianceQuery },
      responses: { 200: json(CompliancePage, "A page of lots") },
    }),
    async (c) =>
      c.json(
        await compliance(c.var.db, localDay(new Date(), settingsOf(c.var.tenant).timezone), c.req.valid("query")),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-reports/cost",
      operationId: "getLicenceCost",
      tags,
      summary: "Cost per product per year, and per department",
      description:
        "Each product's yearly cost per currency (monthly terms ×12, multi-year terms ÷ their years), and the yearly cost of the seats people hold, grouped by the person's department.",
      request: { query: z.object({ productId: z.string().max(64).optional() }) },
      responses: { 200: json(CostReport, "The report") },
    }),
    async (c) => c.json(await costReport(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-renewal-feeds",
      operationId: "createLicenceRenewalFeed",
      tags,
      summary: "Create an iCalendar feed of renewal dates",
      description:
        "A URL for calendar apps (which cannot send headers, so the URL carries a secret): each live lot's term end as a one-day event, from 90 days back. It belongs to the signed-in user and stops when they are deactivated or revoke it.",
      request: body(CreateFeedBody),
      responses: { 201: json(CreatedFeedSchema, "Created; `url` is shown only now"), ...errorResponses(409) },
    }),
    async (c) =>
      c.json(
        await createFeed(serviceCtx(c), c.req.valid("json"), (token) =>
          workspaceApiUrl(c.env, c.var.tenant.slug, `/licence-renewals/${token}.ics`),
        ),
        201,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-renewal-feeds",
      operationId: "listLicenceRenewalFeeds",
      tags,
      summary: "List your renewal feeds",
      request: { query: z.object({ ...pageQuery }) },
      responses: { 200: json(FeedPage, "A page of feeds") },
    }),
    async (c) => c.json(await listFeeds(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/licence-renewal-feeds/{feedId}",
      operationId: "revokeLicenceRenewalFeed",
      tags,
      summary: "Revoke a renewal feed",
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
      path: "/licence-renewals/{file}",
      operationId: "getLicenceRenewalFeed",
      tags,
      summary: "An iCalendar feed of renewal dates (the URL from POST /licence-renewal-feeds)",
      description:
        "RFC 5545 text; the URL's secret is the credential. Unknown, revoked or a deactivated user's feed: 404.",
      request: { params: FeedFileParams },
      responses: {
        200: {
          description: "The calendar",
          headers: {
            "Cache-Control": HEADERS.cacheControl("`private, max-age=300`: the URL is a credential."),
            "X-Content-Type-Options": HEADERS.noSniff,
          },
          content: { "text/calendar": { schema: z.string() } },
        },
        ...errorResponses(404),
      },
    }),
    async (c) => {
      const token = c.req.valid("param").file.replace(/\.ics$/, "");
      const text = await renderRenewalFeed(c.var.db, token, (id) =>
        workspaceApiUrl(c.env, c.var.tenant.slug, `/licence-lots/${id}`),
      );
      return c.body(text, 200, {
        "content-type": "text/calendar; charset=utf-8",
        "cache-control": "private, max-age=300",
        "x-content-type-options": "nosniff",
      });
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-products/{productId}/reviews",
      operationId: "openLicenceReview",
      tags,
      summary: "Open an access review of a product's seats",
      description:
        "Every open seat becomes an item to keep or revoke before `dueDate`, by the holder's manager (people.managerId) or an admin.",
      request: { params: ProductParams, ...body(CreateReviewBody) },
      responses: { 201: json(ReviewSchema, "Opened") },
    }),
    async (c) => c.json(await openReview(serviceCtx(c), c.req.valid("param").productId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-reviews/{reviewId}",
      operationId: "getLicenceReview",
      tags,
      summary: "An access review and its outcomes",
      description: "`unreviewed=true` lists only the seats nobody decided yet.",
      request: { params: ReviewParams, query: z.object({ unreviewed: z.enum(["true", "false"]).optional() }) },
      responses: { 200: json(ReviewSchema, "The review") },
    }),
    async (c) =>
      c.json(await getReview(c.var.db, c.req.valid("param").reviewId, c.req.valid("query").unreviewed === "true"), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-reviews/{reviewId}/decisions",
      operationId: "decideLicenceReview",
      tags,
      summary: "Keep or revoke seats of an access review",
      description:
        "Before the due date, by an admin or the holder's manager (the user whose email is the manager's; 403 otherwise). A revoke frees the seat in the same write; each seat is decided once (409).",
      request: { params: ReviewParams, ...body(DecideBody) },
      responses: { 200: json(ReviewSchema, "The review"), ...errorResponses(409) },
    }),
    async (c) =>
      c.json(
        await decide(serviceCtx(c), c.var.principal, c.req.valid("param").reviewId, c.req.valid("json").decisions),
        200,
      ),
  );
