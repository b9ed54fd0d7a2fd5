import { grants } from "../../access/scopes";
import { createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { settingsOf } from "../../tenancy/registry";
import { depreciation } from "./depreciation";
import { DepreciationQuery, DepreciationSchema } from "./depreciation-schemas";
import { resolveRange, resolveScope } from "./filters";
import { lifecycleAnalytics } from "./lifecycle";
import { maintenanceAnalytics } from "./maintenance";
import { overview } from "./overview";
import { replacementLoss } from "./replacement-loss";
import { REPORTS } from "./reports";
import * as s from "./schemas";
import { sessionsAnalytics } from "./sessions";

const tags = ["Analytics"];
const RANGE_NOTE =
  "`from`/`to` bound the range (400 when `from` is not before `to`, or the range holds more than 366 periods); `categoryId`/`locationId` must name live rows (400).";

export const analyticsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/overview",
      operationId: "getAnalyticsOverview",
      tags,
      summary: "Workspace overview",
      description:
        "Asset counts by status, category and location; assigned and overdue returns; health badge counts; sessions in progress; maintenance overdue, due today and upcoming (workspace time zone); licences: seats owned, assigned and used, yearly spend per currency and renewals in the next 30 days (workspace-wide; null for an API key without `licences:read`). `categoryId`/`locationId` must name live rows (400).",
      request: { query: s.ScopeQuery },
      responses: { 200: json(s.OverviewSchema, "The overview") },
    }),
    async (c) => {
      // Licences only for a caller who may read them: a stats-only API key sees null there.
      const p = c.var.principal;
      const withLicences = p.kind !== "apiKey" || grants(p.scopes, "licences:read");
      const scope = await resolveScope(c.var.db, c.req.valid("query"));
      return c.json(
        await overview(c.var.db, scope, settingsOf(c.var.tenant).timezone, new Date(), { withLicences }),
        200,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/sessions",
      operationId: "getAnalyticsSessions",
      tags,
      summary: "Inventory session analytics",
      description: `Per period (by completion time): sessions completed, scanned vs expected, missing rate, wrong-location count, median time to complete. The scope filters match the sessions' own category/location scope. ${RANGE_NOTE}`,
      request: { query: s.RangeScopeQuery },
      responses: { 200: json(s.SessionsAnalyticsSchema, "Session analytics") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(await sessionsAnalytics(c.var.db, resolveRange(q), await resolveScope(c.var.db, q)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/lifecycle",
      operationId: "getAnalyticsLifecycle",
      tags,
      summary: "Asset lifecycle analytics",
      description: `Assets created, retired, lost and found per period, and the age distribution of live assets. ${RANGE_NOTE}`,
      request: { query: s.RangeScopeQuery },
      responses: { 200: json(s.LifecycleAnalyticsSchema, "Lifecycle analytics") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(await lifecycleAnalytics(c.var.db, resolveRange(q), await resolveScope(c.var.db, q)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/maintenance",
      operationId: "getAnalyticsMaintenance",
      tags,
      summary: "Maintenance analytics",
      description: `Maintenance completed per period and type, the overdue backlog, and the pooled mean time between consecutive completions of an item (all intervals ending in the range: total length / number). ${RANGE_NOTE}`,
      request: { query: s.RangeScopeQuery },
      responses: { 200: json(s.MaintenanceAnalyticsSchema, "Maintenance analytics") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(
        await maintenanceAnalytics(
          c.var.db,
          resolveRange(q),
          await resolveScope(c.var.db, q),
          settingsOf(c.var.tenant).timezone,
        ),
        200,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/depreciation",
      operationId: "getAnalyticsDepreciation",
      tags,
      summary: "Depreciation",
      description:
        "Straight-line and double-declining-balance book values: per category and currency (useful life = the category's expected life, else `defaultLifeMonths`; salvage = `salvagePercent` of cost), totals per currency (never summed across currencies) and per asset, paginated by id.",
      request: { query: DepreciationQuery },
      responses: { 200: json(DepreciationSchema, "Depreciation") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(await depreciation(c.var.db, { ...q, ...(await resolveScope(c.var.db, q)) }), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/replacement-loss",
      operationId: "getAnalyticsReplacementLoss",
      tags,
      summary: "Replacement and loss",
      description: `Age buckets, age by category and the oldest assets; warranty expiry counts and lists for 30, 60 and 90 days; long-assigned assets and threshold counts; missing-rate trends by location and category (sessions completed in the range); assets missed in each of their last \`inARow\` completed sessions that expected them. ${RANGE_NOTE}`,
      request: { query: s.ReplacementLossQuery },
      responses: { 200: json(s.ReplacementLossSchema, "Replacement and loss") },
    }),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(
        await replacementLoss(c.var.db, { ...q, ...(await resolveScope(c.var.db, q)) }, resolveRange(q)),
        200,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/stats/analytics/reports",
      operationId: "listAnalyticsReports",
      tags,
      summary: "Available reports and exports",
      description: "The analytics reports, CSV exports and CSV imports, each with its parameters.",
      responses: { 200: json(s.ReportsSchema, "The catalogue") },
    }),
    (c) => c.json({ items: REPORTS.map((r) => ({ ...r, parameters: [...r.parameters] })) }, 200),
  );
