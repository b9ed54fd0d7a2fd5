import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { safeEqual } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { REQUEST_TTL_MS } from "./requests";

/**
 * Login CSRF defence: the state of a sign-in is also set as a cookie in the browser that started
 * it, and the callback accepts only the state that browser holds. Without it, an attacker could
 * start a sign-in, obtain a valid IdP answer for their own account and make a victim's browser
 * deliver it, signing the victim in as the attacker. SameSite=None because the SAML answer
 * arrives as a cross-site POST from the IdP; HttpOnly and Secure (browsers treat *.localhost as
 * secure, so local development works); scoped to the callbacks' path.
 */
export const SSO_STATE_COOKIE = "sso_state";
const COOKIE_PATH = "/api/v1/auth/";

export function bindToBrowser(c: Context, state: string): void {
  setCookie(c, SSO_STATE_COOKIE, state, {
    path: COOKIE_PATH,
    httpOnly: true,
    secure: true,
    sameSite: "None",
    maxAge: Math.floor(REQUEST_TTL_MS / 1000),
  });
}

export const browserStateOf = (c: Context): string | undefined => getCookie(c, SSO_STATE_COOKIE);

export function releaseBrowser(c: Context): void {
  deleteCookie(c, SSO_STATE_COOKIE, { path: COOKIE_PATH, secure: true, sameSite: "None" });
}

export function requireSameBrowser(cookie: string | undefined, state: string | undefined): void {
  if (!cookie || !state || !safeEqual(cookie, state)) {
    throw new ApiError(
      "validation_failed",
      "This sign-in was not started in this browser (or its cookie was blocked). Start the sign-in again from the sign-in page.",
    );
  }
}
