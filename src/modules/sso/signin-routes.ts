import type { AppContext } from "../../env";
import { HEADERS, PAGE_HEADERS } from "../../http/response-headers";
import { createRouter, defineRoute, errorResponses, jsonContent } from "../../http/router";
import { ApiError } from "../../platform/errors";
import { SessionSchema, setRefreshCookie } from "../auth";
import { bootstrapFor } from "./bootstrap";
import { bindToBrowser, browserStateOf, releaseBrowser } from "./browser-binding";
import { newNonce, pageHeaders, refusalPage } from "./html";
import { spMetadataXml } from "./saml-flow";
import {
  oidcCallback,
  type SigninCtx,
  type SigninStart,
  samlCallback,
  startSocialLogin,
  startSsoLogin,
} from "./signin";
import { BootstrapSchema, OidcCallbackQuerySchema, SamlCallbackForm } from "./signin-schemas";
import { spUrls } from "./urls";

const tags = ["Single sign-on"];

export const signinCtx = (c: AppContext): SigninCtx => ({
  env: c.env,
  tenant: c.var.tenant,
  db: c.var.db,
  urls: spUrls(c.env, c.var.tenant.slug),
  auth: { db: c.var.db, tenantId: c.var.tenant.id, secret: c.env.JWT_SECRET },
  browserState: browserStateOf(c),
});

/** The redirect to the IdP, with the state cookie that binds the sign-in to this browser. */
export function redirectToIdp(c: AppContext, start: SigninStart) {
  bindToBrowser(c, start.state);
  return c.redirect(start.url, 302);
}

const wantsJson = (c: AppContext) => (c.req.header("accept") ?? "").includes("application/json");

/**
 * Callbacks are where browsers land. A browser gets its refresh token as the HttpOnly
 * `inventory_refresh` cookie and a 303 to the app's /login, which trades the cookie for an access
 * token and goes on to the page the person asked for (docs/field-app.md): no token in a URL or in
 * the page. A refusal is a page with the reason. A client that asks for JSON gets the session body
 * or the error envelope.
 */
async function finish(c: AppContext, work: () => Promise<{ refreshToken: string }>) {
  // Whatever the outcome, this browser's sign-in attempt is over.
  releaseBrowser(c);
  try {
    const session = await work();
    if (wantsJson(c)) return c.json(session, 200);
    setRefreshCookie(c, session.refreshToken);
    return c.redirect("/login", 303);
  } catch (err) {
    if (!(err instanceof ApiError) || wantsJson(c)) throw err;
    const nonce = newNonce();
    return c.body(refusalPage(err.message, nonce), err.status, pageHeaders(nonce));
  }
}

/** The state cookie of the browser binding: set by the redirect to the IdP, cleared by the callback. */
const SET_STATE_COOKIE = {
  "Set-Cookie": HEADERS.setCookie(
    "`sso_state=<state>; Path=/api/v1/auth/; HttpOnly; Secure; SameSite=None; Max-Age=600`: binds the sign-in to this browser (docs/sso.md).",
  ),
};
const callbackCookies = (then: string) => ({
  "Set-Cookie": HEADERS.setCookie(
    `Clears \`sso_state\` (whatever the outcome, this browser's sign-in attempt is over)${then}.`,
    false,
  ),
});

/**
 * A refusal of a callback: the reason as a page for browsers (with the page's security headers),
 * the envelope for JSON clients.
 */
const pageOrEnvelope = <S extends number>(...statuses: S[]) =>
  Object.fromEntries(
    Object.entries(errorResponses(...statuses) as Record<string, ReturnType<typeof errorResponses<S>>[S]>).map(
      ([status, r]) => [
        status,
        {
          ...r,
          headers: { ...PAGE_HEADERS, ...callbackCookies("") },
          content: { ...r.content, "text/html": { schema: { type: "string" as const } } },
        },
      ],
    ),
  ) as unknown as ReturnType<typeof errorResponses<S>>;

const callbackResponses = {
  // The guard's own refusals (unknown workspace, throttle, body shape) come before the page is
  // chosen, but a browser may meet any of them: each is documented as a page or the envelope.
  ...pageOrEnvelope(400, 401, 403, 404, 413, 415, 429, 500, 502),
  200: {
    description: "Signed in (`Accept: application/json`): the same body as POST /auth/login",
    headers: callbackCookies(""),
    content: { "application/json": { schema: SessionSchema } },
  },
  303: {
    description:
      "Signed in (a browser): the refresh token set as the HttpOnly `inventory_refresh` cookie, and on to the app's /login",
    headers: {
      Location: HEADERS.location("The app's sign-in page, `/login`, which trades the cookie for a session."),
      ...callbackCookies(
        "; sets `inventory_refresh=<refresh token>; Path=/api/v1/auth/; HttpOnly; Secure; SameSite=Strict; Max-Age=2592000`",
      ),
    },
  },
};

const toIdp = (what: string) => ({
  description: `To ${what}`,
  headers: { Location: HEADERS.location(`The ${what}'s sign-in URL.`), ...SET_STATE_COOKIE },
});

export const ssoSigninRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/bootstrap",
      operationId: "getAuthBootstrap",
      tags,
      summary: "What the sign-in screen needs to know",
      description:
        'For the host\'s workspace: whether it exists, its SSO protocol and flags, and the social login. An unknown or suspended host answers `{"exists": false}` only.',
      responses: { 200: jsonContent(BootstrapSchema, "The bootstrap") },
    }),
    async (c) => c.json(await bootstrapFor(c.env, c.req.url), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/sso-login",
      operationId: "ssoLogin",
      tags,
      summary: "Redirect to the workspace's identity provider",
      description:
        "302 to the SAML IdP (AuthnRequest, HTTP-Redirect binding) or the OIDC authorization endpoint (code + PKCE S256, state, nonce). 403 `plan_required` when the plan lacks SSO; 404 when no SSO is configured; 400 when the config cannot start a sign-in. Browsers use the UI route `/auth/sso-login`.",
      responses: { 302: toIdp("identity provider"), ...errorResponses(400, 403, 502) },
    }),
    async (c) => redirectToIdp(c, await startSsoLogin(signinCtx(c))),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/social-login",
      operationId: "socialLogin",
      tags,
      summary: "Redirect to the platform's social identity provider",
      description:
        "The operator-configured OIDC provider (social login), on every plan. 404 when the operator configured none.",
      responses: { 302: toIdp("social identity provider"), ...errorResponses(401, 502) },
    }),
    async (c) => redirectToIdp(c, await startSocialLogin(signinCtx(c))),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/saml/metadata",
      operationId: "getSamlMetadata",
      tags,
      summary: "Our SAML service-provider metadata",
      description: "Entity id, ACS URL (HTTP-POST) and NameID format of this workspace, for the IdP admin.",
      responses: {
        200: {
          description: "SAML metadata",
          content: { "application/samlmetadata+xml": { schema: { type: "string" as const } } },
        },
      },
    }),
    async (c) =>
      c.body(spMetadataXml(spUrls(c.env, c.var.tenant.slug)), 200, {
        "content-type": "application/samlmetadata+xml; charset=utf-8",
      }),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/auth/saml/callback",
      operationId: "samlCallback",
      tags,
      summary: "SAML assertion consumer service (HTTP-POST binding)",
      description:
        "Form fields `SAMLResponse` and `RelayState`. The workspace is the host's; the request is the stored single-use one RelayState names, and this browser must hold it in the `sso_state` cookie set by the redirect (login CSRF); the response is verified (docs/sso.md) and its assertion id enters the replay cache. Refusals: a page (or the JSON envelope) with the reason, 400/401/403.",
      request: {
        body: { required: true, content: { "application/x-www-form-urlencoded": { schema: SamlCallbackForm } } },
      },
      responses: callbackResponses,
    }),
    (c) =>
      finish(c, async () => {
        const form = await c.req.parseBody();
        const str = (v: unknown) => (typeof v === "string" ? v : undefined);
        return samlCallback(signinCtx(c), { SAMLResponse: str(form.SAMLResponse), RelayState: str(form.RelayState) });
      }),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/auth/oidc/callback",
      operationId: "oidcCallback",
      tags,
      summary: "OIDC redirect URI",
      description:
        "The authorization response (`code`, `state`, `iss`). The workspace is the host's; `state` names the stored single-use request (workspace OIDC or the social login) and must equal this browser's `sso_state` cookie. Refusals: a page (or the JSON envelope) with the reason.",
      request: { query: OidcCallbackQuerySchema },
      responses: callbackResponses,
    }),
    (c) => finish(c, () => oidcCallback(signinCtx(c), c.req.valid("query"))),
  );
