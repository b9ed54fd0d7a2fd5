/**
 * The app's one way to the API: the generated typed client (client/, openapi-fetch) on this
 * origin's /api/v1. The access token lives here, in memory only (docs/field-app.md "Tokens"); the
 * refresh token is an HttpOnly cookie this code never sees.
 */
import { createInventoryClient } from "../../../client/index";

let accessToken: string | null = null;
let refresher: (() => Promise<boolean>) | null = null;

export const api = createInventoryClient({ baseUrl: `${location.origin}/api/v1` });

api.use({
  onRequest({ request }) {
    if (accessToken && !request.headers.has("authorization"))
      request.headers.set("authorization", `Bearer ${accessToken}`);
    return request;
  },
});

export const setAccessToken = (token: string | null) => {
  accessToken = token;
};
export const hasAccessToken = () => accessToken !== null;

/** How an expired access token is renewed (api/auth.ts registers the cookie refresh). */
export const onUnauthenticated = (refresh: () => Promise<boolean>) => {
  refresher = refresh;
};

/**
 * Runs a call; when the access token has expired (401), renews it once and runs the call again.
 * Every authenticated call of the app goes through here.
 */
export async function authed<R extends { response: Response }>(call: () => Promise<R>): Promise<R> {
  const first = await call();
  if (first.response.status !== 401 || !refresher) return first;
  return (await refresher()) ? call() : first;
}

/** The error envelope's message (`{ message, code, details?, requestId }`), or a fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string")
    return error.message;
  return fallback;
}
