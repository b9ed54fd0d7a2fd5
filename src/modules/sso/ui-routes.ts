import { Hono } from "hono";
import { throttle } from "../../access/throttle";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors";
import { resolveTenant } from "../../tenancy/resolve";
import { newNonce, pageHeaders, refusalPage } from "./html";
import { startSsoLogin } from "./signin";
import { redirectToIdp, signinCtx } from "./signin-routes";

/**
 * Browser routes outside /api/v1: the SSO entry point (the sign-in page itself
 * is the field app's /login, src/modules/field-app). Errors are pages, not JSON: a person is
 * looking at them.
 */
export const ssoPages = new Hono<AppEnv>().get("/auth/sso-login", async (c) => {
  try {
    await throttle(c, "ssoLogin");
    await resolveTenant(c);
    return redirectToIdp(c, await startSsoLogin(signinCtx(c)));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const nonce = newNonce();
    return c.body(refusalPage(err.message, nonce), err.status, pageHeaders(nonce));
  }
});
