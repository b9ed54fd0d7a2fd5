import { z } from "@hono/zod-openapi";
import { SENSITIVITIES } from "../../domain/health-engine";
import { createRouter, defineRoute, jsonBody, jsonContent } from "../../http/router";
import { MAX_CORS_ORIGINS } from "./cors";
import * as svc from "./service";
import { toSettings } from "./view";

const tags = ["Settings"];

const SettingsSchema = z
  .object({
    timezone: z.string().openapi({
      example: "Europe/Oslo",
      description: 'IANA zone for day boundaries: maintenance "due today", daily reminders.',
    }),
    healthSensitivity: z
      .enum(SENSITIVITIES)
      .openapi({ description: "Change it with PUT /settings/health (re-scores assets)." }),
    corsOrigins: z.array(z.string()).openapi({
      description: "Browser origins allowed to call this workspace's API (CORS); set with PUT /settings/cors.",
    }),
    requestExpiryDays: z.int().openapi({
      example: 7,
      description:
        "An open request (POST /requests) unanswered this many days is reminded to owners and admins; unanswered twice as long, it expires.",
    }),
    offboardingDueDays: z.int().openapi({
      example: 14,
      description:
        "A new offboarding case (POST /offboarding-cases, or SCIM deprovisioning) is due back this many days after it starts (docs/offboarding.md).",
    }),
  })
  .openapi("WorkspaceSettings");

const CorsBody = z
  .strictObject({
    origins: z
      .array(z.string().max(200))
      .max(MAX_CORS_ORIGINS)
      .openapi({
        example: ["https://app.example.com"],
        description: `At most ${MAX_CORS_ORIGINS} origins (scheme, host, optional port); [] turns CORS off.`,
      }),
  })
  .openapi("UpdateCorsOrigins");

const UpdateSettingsBody = z
  .strictObject({
    timezone: z.string().min(1).max(64).optional(),
    requestExpiryDays: z.int().min(1).max(90).optional().openapi({ description: "1..90 days (default 7)." }),
    offboardingDueDays: z.int().min(1).max(90).optional().openapi({ description: "1..90 days (default 14)." }),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateWorkspaceSettings");

export const settingsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/settings",
      operationId: "getSettings",
      tags,
      summary: "Workspace settings",
      responses: { 200: jsonContent(SettingsSchema, "The settings") },
    }),
    async (c) => c.json(toSettings(c.var.tenant), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/settings",
      operationId: "updateSettings",
      tags,
      summary: "Change workspace settings",
      description: "Only the time zone is set here; an unknown IANA zone is a 400.",
      request: jsonBody(UpdateSettingsBody),
      responses: { 200: jsonContent(SettingsSchema, "Updated") },
    }),
    async (c) => c.json(await svc.updateGeneralSettings(c.env, c.var.tenant, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/settings/cors",
      operationId: "updateCorsOrigins",
      tags,
      summary: "Set the browser origins allowed to call the API (CORS)",
      description:
        "Replaces the allowlist. A request with an allowed `Origin` gets it back in `Access-Control-Allow-Origin` (never `*`; no cookies are involved: send Authorization); preflights (OPTIONS) are answered 204 for allowed origins and 403 otherwise.",
      request: jsonBody(CorsBody),
      responses: { 200: jsonContent(SettingsSchema, "Updated") },
    }),
    async (c) => c.json(await svc.updateCorsOrigins(c.env, c.var.tenant, c.req.valid("json")), 200),
  );

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type WorkspaceSettings = z.infer<typeof SettingsSchema>;
