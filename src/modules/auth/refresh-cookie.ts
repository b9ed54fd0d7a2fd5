import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ApiError } from "../../platform/errors";
import { REFRESH_TTL_DAYS } from "./refresh-tokens";

/**
 * The refresh token as a cookie, for browsers (the field app, docs/field-app.md "Tokens"): the
 * access token lives only in the page's memory, the refresh token only in this cookie, which
 * script cannot read. HttpOnly; Secure (browsers treat *.localhost as secure); SameSite=Strict and
 * host-only, so it is sent to its own workspace host only; scoped to the auth routes' path, so no
 * other request carries it. API clients keep the token in the body and never see the cookie.
 */
export const REFRESH_COOKIE = "inventory_refresh";
const COOKIE_PATH = "/api/v1/auth/";

export function setRefreshCookie(c: Context, token: string): void {
  setCookie(c, REFRESH_COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    maxAge: REFRESH_TTL_DAYS * 86_400,
  });
}

export function clearRefreshCookie(c: Context): void {
  deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH, secure: true, sameSite: "Strict" });
}

/**
 * The cookie's token, when the request may use it. SameSite=Strict keeps other sites out, but
 * every workspace host is the same site; so the request must also come from this very origin:
 * `Sec-Fetch-Site` (sent by every current browser) must say so, and an `Origin` must be ours.
 * A request without the cookie gets undefined; a cross-origin one with it gets 403.
 */
export function refreshCookieOf(c: Context): string | undefined {
  const token = getCookie(c, REFRESH_COOKIE);
  if (!token) return undefined;
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if ((site !== undefined && site !== "same-origin") || (origin !== undefined && origin !== new URL(c.req.url).origin))
    throw new ApiError("forbidden", "The refresh cookie is accepted only from this workspace's own pages");
  return token;
}

/**
 * A session as the caller asked for it: with `cookie`, the refresh token goes into the cookie and
 * out of the body (the `AuthCookieSession` shape); otherwise the body is unchanged.
 */
export function deliverSession<S extends { refreshToken: string }>(c: Context, session: S, cookie: boolean) {
  if (!cookie) return session;
  const { refreshToken, ...rest } = session;
  setRefreshCookie(c, refreshToken);
  return rest;
}
