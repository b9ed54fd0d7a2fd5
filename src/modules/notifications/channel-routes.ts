import { z } from "@hono/zod-openapi";
import type { AppContext } from "../../env";
import { PAGE_HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { ApiError } from "../../platform/errors";
import { settingsOf } from "../../tenancy/registry";
import {
  ListSendsQuery,
  PreferencesSchema,
  SendPage,
  SettingsSchema,
  UnsubscribeQuery,
  UnsubscribeResult,
  UpdatePreferencesBody,
  UpdateSettingsBody,
} from "./channel-schemas";
import { getPreferences, type PrefsCtx, updatePreferences } from "./preferences";
import { listSends } from "./send-log";
import { getSettings, updateSettings } from "./settings";
import { unsubscribe } from "./unsubscribe";
import { unsubscribePage } from "./unsubscribe-page";

const tags = ["Notifications"];
const zone = (c: AppContext) => settingsOf(c.var.tenant).timezone;

function prefsCtx(c: AppContext): PrefsCtx {
  const p = c.var.principal;
  if (p.kind !== "user") throw new ApiError("forbidden", "Preferences belong to users: sign in as a workspace user");
  return { db: c.var.db, userId: p.userId, workspaceZone: zone(c) };
}

const actorOf = (c: AppContext) => {
  const p = c.var.principal;
  return p.kind === "user" ? p.userId : p.kind === "apiKey" ? p.keyId : "system";
};

const MODES =
  "Modes: `off`, `immediate` (a mail per notification, held until your quiet hours end), `daily` or `weekly` (one digest mail per period, grouped by kind and counted; none when empty).";

export const notificationChannelsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/notifications/preferences",
      operationId: "getMyNotificationPreferences",
      tags,
      summary: "My notification preferences",
      description: `Per kind, the email mode in effect for you and where it comes from (your choice, the workspace default, or the kind's default for your role), plus your time zone and quiet hours. In-app notifications are always on. ${MODES}`,
      responses: { 200: json(PreferencesSchema, "Your preferences") },
    }),
    async (c) => c.json(await getPreferences(prefsCtx(c)), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/notifications/preferences",
      operationId: "updateMyNotificationPreferences",
      tags,
      summary: "Change my notification preferences",
      description: `Changes only what the body names. \`kinds[].mode: null\` returns a kind to its default. ${MODES}`,
      request: body(UpdatePreferencesBody),
      responses: { 200: json(PreferencesSchema, "Your preferences after the change") },
    }),
    async (c) => c.json(await updatePreferences(prefsCtx(c), c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/notification-settings",
      operationId: "getNotificationSettings",
      tags,
      summary: "Workspace notification settings",
      description:
        "Every notification kind with its default email mode per role, the workspace's default (overriding the role defaults) and its chat channel (provider and host only: the URL is a secret), and whether people who are not users get mail about their own equipment.",
      responses: { 200: json(SettingsSchema, "The settings") },
    }),
    async (c) => c.json(await getSettings({ db: c.var.db }), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/notification-settings",
      operationId: "updateNotificationSettings",
      tags,
      summary: "Change workspace notification settings",
      description:
        "Changes only what the body names. `kinds[].chat` sets (or with null removes) the kind's chat channel: a Slack, Microsoft Teams or Google Chat incoming-webhook URL, https only, private, loopback and internal addresses refused (400); it is stored encrypted and never shown again. `peopleMode` other than `off` mails people who are not users about their own equipment (kinds marked `people`).",
      request: body(UpdateSettingsBody),
      responses: { 200: json(SettingsSchema, "The settings after the change") },
    }),
    async (c) =>
      c.json(
        await updateSettings(
          { db: c.var.db, env: c.env, tenantId: c.var.tenant.id, actor: actorOf(c) },
          c.req.valid("json"),
        ),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/notification-sends",
      operationId: "listNotificationSends",
      tags,
      summary: "List the notification send log",
      description:
        "Every mail and chat post, newest first: the channel, kind, recipient (an id, never an address), status (`pending` with its next attempt, `sent` with its Message-ID, `failed` after its retries, `skipped` with the reason), attempts and last error.",
      request: { query: ListSendsQuery },
      responses: { 200: json(SendPage, "A page of sends") },
    }),
    async (c) => c.json(await listSends(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/notifications/unsubscribe",
      operationId: "getNotificationUnsubscribePage",
      tags,
      summary: "The unsubscribe page of a mail's link",
      description:
        "An HTML page with one button that stops the kind the link names (or the digest) for its recipient. Opening it changes nothing, so link scanners cannot unsubscribe anyone. An invalid link is a 404.",
      request: { query: UnsubscribeQuery },
      responses: {
        200: {
          description: "The page",
          headers: PAGE_HEADERS,
          content: { "text/html": { schema: z.string() } },
        },
      },
    }),
    async (c) => {
      const { html, headers } = unsubscribePage(c.req.url);
      return c.body(html, 200, headers);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/notifications/unsubscribe",
      operationId: "unsubscribeNotifications",
      tags,
      summary: "One-click unsubscribe (RFC 8058)",
      description:
        "What a mail client's unsubscribe button posts (`List-Unsubscribe-Post: List-Unsubscribe=One-Click`; the body, if any, is ignored). Turns off the email of the kind the signed token names for its recipient, or every kind of the digest it names; other kinds, in-app notifications and chat are unchanged. A token of another workspace, or edited, is a 404.",
      request: { query: UnsubscribeQuery },
      responses: { 200: json(UnsubscribeResult, "What was turned off") },
    }),
    async (c) =>
      c.json(await unsubscribe(c.var.db, c.env.JWT_SECRET, c.var.tenant.id, zone(c), c.req.valid("query").token), 200),
  );
