import { permittedOperations } from "../../access/permissions";
import { ssoGateOn } from "../../access/sso/gate";
import type { AppContext } from "../../env";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { personWithEmail } from "../../http/self-service";
import { serviceCtx } from "../../http/service-context";
import { hostOrigin } from "../../tenancy/host";
import { planIncludes } from "../../tenancy/plans";
import { getUser, toUser, UserSchema } from "../users";
import { confirmPasswordReset, RESET_TTL_MINUTES, RESETS_PER_HOUR, requestPasswordReset } from "./password-reset";
import { clearRefreshCookie, deliverSession, refreshCookieOf } from "./refresh-cookie";
import type { AuthCtx } from "./refresh-tokens";
import { invalidRefreshToken } from "./refresh-tokens";
import { sendPasswordResetMail } from "./reset-mail";
import {
  AcceptInviteBody,
  LoginBody,
  PasswordResetConfirmBody,
  PasswordResetRequestBody,
  PermissionsSchema,
  RefreshBody,
  SessionResponseSchema,
} from "./schemas";
import * as svc from "./service";

const tags = ["Auth"];
/** A session answer: with the cookie asked for, the refresh token travels as a cookie, not in the body. */
const sessionAnswer = (description: string, cookieWhen: string) => ({
  ...json(SessionResponseSchema, description),
  headers: {
    "Set-Cookie": HEADERS.setCookie(
      `${cookieWhen}: \`inventory_refresh=<refresh token>; Path=/api/v1/auth/; HttpOnly; Secure; SameSite=Strict; Max-Age=2592000\` (docs/field-app.md).`,
      false,
    ),
  },
});
const authCtx = (c: AppContext): AuthCtx => ({ db: c.var.db, tenantId: c.var.tenant.id, secret: c.env.JWT_SECRET });
/** For password sign-in and invite acceptance: whether the SSO-only gate applies (src/modules/sso). */
const gatedAuthCtx = async (c: AppContext): Promise<AuthCtx> => ({
  ...authCtx(c),
  ssoOnly: await ssoGateOn(c.env, c.var.tenant),
});

export const authRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/login",
      operationId: "login",
      tags,
      summary: "Sign in with email and password",
      description:
        "Returns a 15-minute access token (JWT, this workspace only) and a 30-day single-use refresh token. Wrong credentials and deactivated users get the same 401. Under the workspace's SSO-only gate, everyone but owners gets 403 `sso_required` (break-glass: owners keep their password). With `refreshCookie: true` (browsers) the refresh token is set as the `inventory_refresh` cookie instead of returned.",
      request: body(LoginBody),
      responses: {
        200: sessionAnswer("Signed in", "Only with `refreshCookie: true`"),
        ...errorResponses(401, 403, 415),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const session = await svc.login(await gatedAuthCtx(c), input);
      return c.json(deliverSession(c, session, input.refreshCookie === true), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/refresh",
      operationId: "refreshToken",
      tags,
      summary: "Exchange a refresh token for a new pair",
      description:
        "Rotation: the presented token is revoked. Presenting an already-used token revokes all of the user's refresh tokens (401). Under the workspace's SSO-only gate, a session born of a password (sign-in or invite acceptance) ends: 403 `sso_required` and the token is revoked, except for owners (break-glass). Without `refreshToken` in the body the `inventory_refresh` cookie is used (browsers; same origin only, 403 otherwise) and its successor is set as the cookie, not returned; neither present is a 401.",
      request: body(RefreshBody),
      responses: {
        200: sessionAnswer("New tokens", "Only when the token came from the cookie: its successor"),
        ...errorResponses(401, 403, 415),
      },
    }),
    async (c) => {
      const inBody = c.req.valid("json").refreshToken;
      const token = inBody ?? refreshCookieOf(c);
      if (!token) throw invalidRefreshToken();
      return c.json(deliverSession(c, await svc.refresh(await gatedAuthCtx(c), token), inBody === undefined), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/logout",
      operationId: "logout",
      tags,
      summary: "Revoke a refresh token",
      description:
        "Idempotent; 204. Without `refreshToken` in the body the `inventory_refresh` cookie's token is revoked (same origin only, 403 otherwise); the cookie is cleared either way.",
      request: body(RefreshBody),
      responses: {
        204: {
          description: "Revoked",
          headers: {
            "Set-Cookie": HEADERS.setCookie(
              "Always: clears the `inventory_refresh` cookie (`inventory_refresh=; Max-Age=0; Path=/api/v1/auth/; Secure; SameSite=Strict`).",
            ),
          },
        },
        ...errorResponses(403, 415),
      },
    }),
    async (c) => {
      const token = c.req.valid("json").refreshToken ?? refreshCookieOf(c);
      if (token) await svc.logout(authCtx(c), token);
      clearRefreshCookie(c);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/me",
      operationId: "getMe",
      tags,
      summary: "The signed-in user",
      responses: { 200: json(UserSchema, "The user") },
    }),
    async (c) => {
      const p = c.var.principal;
      // The guard admits only user JWTs here; anything else has no "me".
      const id = p.kind === "user" ? p.userId : "";
      return c.json(toUser(await getUser(serviceCtx(c), id)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/permissions",
      operationId: "getMyPermissions",
      tags,
      summary: "What the signed-in user may do",
      description:
        "The operations (by operationId) that the user's role and the workspace's plan allow, from the same policy table that guards every route. The field app shows an action only when its operation is listed.",
      responses: { 200: json(PermissionsSchema, "The permitted operations") },
    }),
    async (c) => {
      const p = c.var.principal;
      // The guard admits user JWTs only (a platform admin acts as an owner, as in the guard).
      const role = p.kind === "platformAdmin" ? "owner" : p.role;
      const plan = c.var.tenant.plan;
      const person = p.kind === "user" ? await personWithEmail(c.var.db, p.email) : undefined;
      const operations = permittedOperations(role, (f) => planIncludes(plan, f));
      return c.json({ role, operations, personId: person?.id ?? null }, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/invites/accept",
      operationId: "acceptInvite",
      tags,
      summary: "Accept an invite and set a password",
      description:
        "Creates the user with the invite's email and role and signs them in. An unknown, expired, revoked or already used token is a 400 (`body.token`). Under the SSO-only gate a non-owner invite is consumed by the first SSO sign-in instead (403 `sso_required`). The invite's `acceptUrl` opens the field app's join page, which calls this route (docs/auth.md#joining-and-resetting-a-password). With `refreshCookie: true` (browsers) the refresh token is set as the `inventory_refresh` cookie instead of returned.",
      request: body(AcceptInviteBody),
      responses: {
        201: sessionAnswer("User created and signed in", "Only with `refreshCookie: true`"),
        ...errorResponses(403, 409, 415),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const session = await svc.acceptInvite(await gatedAuthCtx(c), input);
      return c.json(deliverSession(c, session, input.refreshCookie === true), 201);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/password-reset",
      operationId: "requestPasswordReset",
      tags,
      summary: "Ask for a password reset link",
      description: `Records a reset for the active user with this email and sends them a link to the field app's reset page (\`<workspace>/reset-password#token=…\`), valid ${RESET_TTL_MINUTES} minutes and usable once. The answer is 202 whether or not a user has this email, so it reveals nothing. At most ${RESETS_PER_HOUR} links per user per hour (more are answered the same and send nothing), on top of the per-address limit of the sign-in routes. Under the SSO-only gate only owners get a link. The mail goes through the configured mail transport (docs/notifications.md#configuration-the-operators); without one the link is recorded but not mailed (docs/auth.md#password-reset).`,
      request: body(PasswordResetRequestBody),
      responses: {
        202: { description: "Asked for: a link is on its way if a user has this email" },
        ...errorResponses(415),
      },
    }),
    async (c) => {
      const linkBase = `${hostOrigin(c.env, c.var.tenant.slug)}/reset-password`;
      const slug = c.var.tenant.slug;
      // Sent after the answer, so its time does not tell whether the email has a user.
      await requestPasswordReset(await gatedAuthCtx(c), c.req.valid("json").email, linkBase, (mail) =>
        c.executionCtx.waitUntil(sendPasswordResetMail(c.env, slug, mail)),
      );
      return c.body(null, 202);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/password-reset/confirm",
      operationId: "confirmPasswordReset",
      tags,
      summary: "Set a new password with a reset link's token",
      description:
        "Sets the password and signs the user in; every other session of the user ends (refresh tokens revoked, older access tokens refused). An unknown, altered, expired or already used token is a 400 (`body.token`). With `refreshCookie: true` (browsers) the refresh token is set as the `inventory_refresh` cookie instead of returned.",
      request: body(PasswordResetConfirmBody),
      responses: {
        200: sessionAnswer("Password set and signed in", "Only with `refreshCookie: true`"),
        ...errorResponses(415),
      },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const session = await confirmPasswordReset(authCtx(c), input);
      return c.json(deliverSession(c, session, input.refreshCookie === true), 200);
    },
  );
