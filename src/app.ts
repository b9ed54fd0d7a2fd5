import { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env";
import { allowedMethods } from "./http/allowed-methods";
import { d1QueryCounter } from "./http/d1-counter";
import { notFoundWith, onError } from "./http/error-handler";
import { requestId } from "./http/request-id";
import { registerHeaderComponents } from "./http/response-headers";
import { scimErrorResponse } from "./http/scim-errors";
import { adminRouter } from "./modules/admin";
import { analyticsRouter, tt10Router } from "./modules/analytics";
import { apiKeysRouter, apiKeyWebhookResources } from "./modules/api-keys";
import { answerAcceptanceWith, assetsRouter, assetWebhookResources } from "./modules/assets";
import { authRouter } from "./modules/auth";
import { bookingsRouter, bookingWebhookResources } from "./modules/bookings";
import { calendarRouter } from "./modules/calendar";
import { categoriesRouter, categoryWebhookResources } from "./modules/categories";
import { customFieldsRouter, customFieldWebhookResources } from "./modules/custom-fields";
import { feedbackRouter, feedbackWebhookResources } from "./modules/feedback";
import { appNotFoundPage, fieldAppPages } from "./modules/field-app";
import { objectsRouter } from "./modules/files";
import {
  acceptanceForCustody,
  handoverLinksRouter,
  handoversRouter,
  handoverWebhookResources,
} from "./modules/handovers";
import { healthRouter } from "./modules/health";
import { exportRouter, importRouter } from "./modules/import-export";
import { kitsRouter, kitWebhookResources } from "./modules/kits";
import { codesRouter, labelsRouter, labelWebhookResources, printRouter } from "./modules/labels";
import { layoutsRouter, layoutWebhookResources } from "./modules/layouts";
import {
  licenceBulkRouter,
  licenceProductsRouter,
  licenceReportsRouter,
  licenceSeatsRouter,
  licenceWebhookResources,
} from "./modules/licences";
import { locationsRouter, locationWebhookResources } from "./modules/locations";
import { maintenanceLogsRouter, maintenanceSchedulesRouter, maintenanceWebhookResources } from "./modules/maintenance";
import { notificationChannelsRouter, notificationsRouter, realtimeRouter } from "./modules/notifications";
import { offboardingRouter, offboardingWebhookResources } from "./modules/offboarding";
import { peopleRouter, personWebhookResources } from "./modules/people";
import { quickAddRouter } from "./modules/quick-add";
import { requestsRouter, requestWebhookResources } from "./modules/requests";
import { scanEventsRouter } from "./modules/scan-events";
import { scimAdminRouter, scimRouter, scimWebhookResources } from "./modules/scim";
import { searchRouter } from "./modules/search";
import { sessionSchedulesRouter, sessionScheduleWebhookResources } from "./modules/session-schedules";
import { sessionItemsRouter, sessionScanRouter, sessionsRouter, sessionWebhookResources } from "./modules/sessions";
import { cors, settingsRouter } from "./modules/settings";
import { ssoConfigRouter, ssoPages, ssoSigninRouter } from "./modules/sso";
import {
  stockAnalyticsRouter,
  stockCountsRouter,
  stockItemsRouter,
  stockMovementsRouter,
  stockWebhookResources,
} from "./modules/stock";
import { trashRouter, trashWebhookResources } from "./modules/trash";
import { usersRouter, userWebhookResources } from "./modules/users";
import { registerWebhookDocs, webhookDeliveriesRouter, webhookEndpointsRouter } from "./modules/webhooks";
import { API_INFO, API_TAGS } from "./openapi-meta";
import { ApiError } from "./platform/errors";
import { hostOrigin } from "./tenancy/host";

// Custody (assets, kits) sits below the hand-overs module, so the answer to "does this checkout
// need a signature?" is wired in here, above both (docs/handovers.md#every-checkout-to-a-person).
answerAcceptanceWith(acceptanceForCustody);

export const API_PREFIX = "/api/v1";
export const SCIM_PREFIX = "/scim/v2";
/** JSON bodies larger than this are refused with 413; upload routes set their own limits. */
export const JSON_BODY_LIMIT = 1024 * 1024;
const SCALAR_SCRIPT = `${API_PREFIX}/docs/scalar.js`;

export const MODULES = [
  authRouter,
  usersRouter,
  apiKeysRouter,
  adminRouter,
  categoriesRouter,
  locationsRouter,
  quickAddRouter,
  assetsRouter,
  bookingsRouter,
  kitsRouter,
  licenceBulkRouter,
  licenceProductsRouter,
  licenceSeatsRouter,
  licenceReportsRouter,
  requestsRouter,
  offboardingRouter,
  stockItemsRouter,
  stockMovementsRouter,
  stockCountsRouter,
  stockAnalyticsRouter,
  labelsRouter,
  codesRouter,
  printRouter,
  calendarRouter,
  healthRouter,
  trashRouter,
  peopleRouter,
  customFieldsRouter,
  layoutsRouter,
  sessionsRouter,
  sessionItemsRouter,
  sessionScanRouter,
  sessionSchedulesRouter,
  scanEventsRouter,
  maintenanceSchedulesRouter,
  maintenanceLogsRouter,
  // Before notificationsRouter: PATCH /notifications/preferences is not PATCH /notifications/{notificationId}.
  notificationChannelsRouter,
  notificationsRouter,
  realtimeRouter,
  feedbackRouter,
  objectsRouter,
  searchRouter,
  settingsRouter,
  analyticsRouter,
  tt10Router,
  exportRouter,
  importRouter,
  webhookEndpointsRouter,
  webhookDeliveriesRouter,
  ssoConfigRouter,
  ssoSigninRouter,
  handoversRouter,
  handoverLinksRouter,
  scimAdminRouter,
];

/** Upload routes that stream their bodies and enforce their own, larger limits (413 too). */
const OWN_BODY_LIMIT = new Set([
  `${API_PREFIX}/feedback`,
  `${API_PREFIX}/objects/upload`,
  `${API_PREFIX}/imports/inventory-items`,
  `${API_PREFIX}/imports/people`,
]);

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId);
  app.use(`${API_PREFIX}/*`, cors);
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: () => {
      throw new ApiError("payload_too_large", `Request body exceeds ${JSON_BODY_LIMIT} bytes`);
    },
  });
  app.use(`${API_PREFIX}/*`, (c, next) => (OWN_BODY_LIMIT.has(c.req.path) ? next() : jsonBodyLimit(c, next)));
  // ENVIRONMENT=development only: x-d1-queries / x-d1-round-trips on every response (bench/).
  app.use(`${API_PREFIX}/*`, d1QueryCounter);
  for (const router of MODULES) app.route(API_PREFIX, router);
  // SCIM 2.0 where identity providers expect a base URL: the workspace host's /scim/v2 (docs/scim.md).
  // The same limit, answered in SCIM's error shape: this runs before the SCIM router's error handler.
  app.use(
    `${SCIM_PREFIX}/*`,
    bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: (c) =>
        scimErrorResponse(c, new ApiError("payload_too_large", `Request body exceeds ${JSON_BODY_LIMIT} bytes`)),
    }),
  );
  app.route(SCIM_PREFIX, scimRouter);
  // Browser pages outside the API prefix: the field app's pages (/, /login, /a/:tag, /scan, ...)
  // and the SSO entry point /auth/sso-login.
  app.route("/", fieldAppPages);
  app.route("/", ssoPages);

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description:
      "`Authorization: ApiKey <key>`. Keys are created under /api-keys and shown once. A key sent as Bearer is refused (401).",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "Bearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "`Authorization: Bearer <JWT>` from POST /auth/login. Valid only on its own workspace host.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "AdminCookie", {
    type: "apiKey",
    in: "cookie",
    name: "admin_session",
    description: "Platform-admin session cookie set by POST /admin/auth/login on the admin host.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "ScimToken", {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer <SCIM token>` from POST /scim-tokens, on the SCIM routes (/scim/v2) only; nothing else is accepted there.",
  });
  registerHeaderComponents(app);
  // Each module documents its own webhook payloads; the webhooks module only lays them out.
  registerWebhookDocs(app, {
    ...apiKeyWebhookResources,
    ...assetWebhookResources,
    ...bookingWebhookResources,
    ...categoryWebhookResources,
    ...customFieldWebhookResources,
    ...feedbackWebhookResources,
    ...handoverWebhookResources,
    ...kitWebhookResources,
    ...labelWebhookResources,
    ...layoutWebhookResources,
    ...licenceWebhookResources,
    ...locationWebhookResources,
    ...maintenanceWebhookResources,
    ...offboardingWebhookResources,
    ...personWebhookResources,
    ...requestWebhookResources,
    ...scimWebhookResources,
    ...sessionScheduleWebhookResources,
    ...sessionWebhookResources,
    ...stockWebhookResources,
    ...trashWebhookResources,
    ...userWebhookResources,
  });
  app.doc31(`${API_PREFIX}/openapi.json`, (c) => ({
    openapi: "3.1.0",
    info: API_INFO,
    tags: API_TAGS,
    // From the configuration (BASE_URL), never the request's Host: the workspace is a variable.
    servers: [
      {
        url: hostOrigin(c.env, "{workspace}"),
        variables: { workspace: { default: "demo", description: "Your workspace's slug" } },
      },
    ],
  }));
  // The page's script comes from this Worker (the pinned npm package, copied into the app's build by
  // web/vite.config.ts), not a CDN: docs work offline.
  app.get(
    `${API_PREFIX}/docs`,
    Scalar({
      url: `${API_PREFIX}/openapi.json`,
      pageTitle: "Inventory Tracking API",
      cdn: SCALAR_SCRIPT,
      withDefaultFonts: false,
      // Scalar's hosted services, which it shows on localhost by default: "Ask AI" (agent), MCP
      // server generation and the developer toolbar (Deploy, Share). None of them work here, and the
      // page sends nothing beyond this Worker.
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
    }),
  );
  app.get(SCALAR_SCRIPT, async (c) => {
    const res = await c.env.ASSETS.fetch(new Request(new URL("/vendor/scalar/standalone.js", c.req.url)));
    if (!res.ok) throw new ApiError("not_found", "Route not found");
    return new Response(res.body, {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
    });
  });

  // The bare URL wrangler prints answers with where to go instead of "Route not found".
  app.get("/", (c) =>
    c.json({
      message: `This is the Inventory Tracking API. Workspaces are reached on their own host: ${hostOrigin(c.env, "<slug>")}${API_PREFIX}/...; the platform admin on ${hostOrigin(c.env, "admin")}${API_PREFIX}/admin/...`,
      example: `${hostOrigin(c.env, "demo")}${API_PREFIX}/categories`,
      docs: `${hostOrigin(c.env, "demo")}${API_PREFIX}/docs`,
      openapi: `${hostOrigin(c.env, "demo")}${API_PREFIX}/openapi.json`,
    }),
  );

  // After every route is registered: the 405 reads the complete table.
  // A browser's mistyped page address gets the app's "Page not found"; the rest the JSON envelope.
  const apiNotFound = notFoundWith(allowedMethods(app.routes, [API_PREFIX]));
  app.notFound(async (c) => (await appNotFoundPage(c)) ?? apiNotFound(c));
  app.onError(onError);
  return app;
}
