import { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env";
import { adminRouter } from "./modules/admin/routes";
import { apiKeysRouter } from "./modules/api-keys/routes";
import { assetsRouter } from "./modules/assets/routes";
import { healthRouter } from "./modules/health/routes";
import { authRouter } from "./modules/auth/routes";
import { categoriesRouter } from "./modules/categories/routes";
import { customFieldsRouter } from "./modules/custom-fields/routes";
import { feedbackRouter } from "./modules/feedback/routes";
import { layoutsRouter } from "./modules/layouts/routes";
import { locationsRouter } from "./modules/locations/routes";
import { objectsRouter } from "./modules/objects/routes";
import { maintenanceLogsRouter } from "./modules/maintenance/log-routes";
import { maintenanceSchedulesRouter } from "./modules/maintenance/routes";
import { realtimeRouter } from "./modules/notifications/realtime-routes";
import { notificationsRouter } from "./modules/notifications/routes";
import { peopleRouter } from "./modules/people/routes";
import { scanEventsRouter } from "./modules/scan-events/routes";
import { searchRouter } from "./modules/search/routes";
import { sessionSchedulesRouter } from "./modules/session-schedules/routes";
import { sessionItemsRouter } from "./modules/sessions/item-routes";
import { sessionsRouter } from "./modules/sessions/routes";
import { sessionScanRouter } from "./modules/sessions/scan-routes";
import { usersRouter } from "./modules/users/routes";
import { trashRouter } from "./modules/trash/routes";
import { onError, onNotFound } from "./platform/error-handler";
import { d1QueryCounter } from "./platform/d1-counter";
import { ApiError } from "./platform/errors";
import { requestId } from "./platform/request-id";
import { settingsRouter } from "./modules/settings/routes";

export const API_PREFIX = "/api/v1";
/** JSON bodies larger than this are refused with 413; upload routes set their own limits. */
export const JSON_BODY_LIMIT = 1024 * 1024;

export const MODULES = [authRouter, usersRouter, apiKeysRouter, adminRouter, categoriesRouter, locationsRouter, assetsRouter, healthRouter, trashRouter, peopleRouter, customFieldsRouter, layoutsRouter, sessionsRouter, sessionItemsRouter, sessionScanRouter, sessionSchedulesRouter, scanEventsRouter, maintenanceSchedulesRouter, maintenanceLogsRouter, notificationsRouter, realtimeRouter, feedbackRouter, objectsRouter, searchRouter, settingsRouter];

/** Upload routes that stream their bodies and enforce their own, larger limits (413 too). */
const OWN_BODY_LIMIT = new Set([`${API_PREFIX}/feedback`, `${API_PREFIX}/objects/upload`]);

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", requestId);
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

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description: "`Authorization: ApiKey <key>`. Keys are created under /api-keys and shown once. A key sent as Bearer is refused (401).",
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
  app.doc31(`${API_PREFIX}/openapi.json`, (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Inventory Tracking API",
      version: "1.0.0",
      description:
        "Multi-tenant asset and inventory tracking. The workspace is the first label of the host name " +
        "(`https://<workspace>.<domain>/api/v1`). Errors are `{ message, code, details?, requestId }`; " +
        "lists are cursor-paginated (`limit`, `cursor` → `nextCursor`).",
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get(`${API_PREFIX}/docs`, Scalar({ url: `${API_PREFIX}/openapi.json`, pageTitle: "Inventory Tracking API" }));

  app.notFound(onNotFound);
  app.onError(onError);
  return app;
}
