import { z } from "@hono/zod-openapi";
import { createRouter, defineRoute, jsonBody, jsonContent } from "../../http/router";
import { SENSITIVITIES } from "../../health";
import * as svc from "./service";

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
  })
  .openapi("WorkspaceSettings");

const UpdateSettingsBody = z.strictObject({ timezone: z.string().min(1).max(64) }).openapi("UpdateWorkspaceSettings");

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
    async (c) => c.json(svc.toSettings(c.var.tenant), 200),
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
  );

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type WorkspaceSettings = z.infer<typeof SettingsSchema>;
