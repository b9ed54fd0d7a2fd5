/**
 * The app's one way to the API: the generated typed client (client/, openapi-fetch) on this
 * origin's /api/v1. The access token lives here, in memory only (docs/field-app.md "Tokens"); the
 * refresh token is an HttpOnly cookie this code never sees.
 */
import { createInventoryClient } from "../../../client/index";

let accessToken: string | null = null;
/** The user the access token was issued to: a call made for one user never goes out as another. */
let tokenUser: string | null = null;
let refresher: (() => Promise<boolean>) | null = null;
let reachability: ((reachable: boolean) => void) | null = null;

export const api = createInventoryClient({ baseUrl: `${location.origin}/api/v1` });

api.use({
  onRequest({ request }) {
    if (accessToken && !request.headers.has("authorization"))
      request.headers.set("authorization", `Bearer ${accessToken}`);
    return request;
  },
  // Whether the service can be reached, from what actually happened: `navigator.onLine` can read
  // true while every request fails (Wi-Fi without internet; Chromium after going offline).
  onResponse({ response }) {
    reachability?.(true);
    return response;
  },
  onError({ error }) {
    // A fetch that fails without an answer rejects with a TypeError; an abort is not the network.
    if (error instanceof TypeError) reachability?.(false);
  },
});

export const setAccessToken = (token: string | null, userId: string | null = null) => {
  accessToken = token;
  tokenUser = token ? userId : null;
};
export const hasAccessToken = () => accessToken !== null;

/** Told of every request's outcome: an answer (reachable) or a network failure (not). */
export const onReachability = (listener: (reachable: boolean) => void) => {
  reachability = listener;
};

/** How an expired access token is renewed (api/auth.ts registers the cookie refresh). */
export const onUnauthenticated = (refresh: () => Promise<boolean>) => {
  refresher = refresh;
};

/** A call made for one user while the token is another's (a shared phone): it is not sent. */
export class OtherUserError extends Error {}

/**
 * Runs a call; when the access token has expired (401), renews it once and runs the call again.
 * Every authenticated call of the app goes through here. `as`: the call belongs to this user (a
 * queued scan); it is sent only under that user's token, never under whoever is signed in now.
 */
export async function authed<R extends { response: Response }>(call: () => Promise<R>, as?: string): Promise<R> {
  const mine = () => {
    if (as !== undefined && accessToken !== null && tokenUser !== as)
      throw new OtherUserError("the token belongs to another user");
  };
  mine();
  const first = await call();
  if (first.response.status !== 401 || !refresher) return first;
  if (!(await refresher())) return first;
  mine();
  return call();
}

/**
 * The API's field names as the app's forms call them: a person reads "due back", never
 * `dueBackAt`. Anything unnamed here is split into words ("holderKind" → "holder kind").
 */
const FIELD_WORDS: Record<string, string> = {
  dueBackAt: "due back",
  personId: "person",
  locationId: "location",
  startsAt: "from",
  endsAt: "to",
  assetId: "asset",
  assetIds: "assets",
  kitId: "kit",
  stockItemId: "stock item",
  uniqueTag: "tag",
  token: "link",
  ids: "list",
};
const words = (field: string) => FIELD_WORDS[field] ?? field.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** A message of the API in the app's words: `body.dueBackAt: …` → `Due back: …`; bare field names too. */
export function inWords(message: string): string {
  const said = message
    .replace(/\b(?:body|query|path|params)\.([A-Za-z]+)(?:\.\d+)?/g, (_, f: string) => words(f))
    .replace(/\b([a-z]+(?:[A-Z][a-z]+)+)\b/g, (m: string) => (m in FIELD_WORDS || /Id$|At$/.test(m) ? words(m) : m));
  return said.charAt(0).toUpperCase() + said.slice(1);
}

/** The error envelope's message (`{ message, code, details?, requestId }`) in the app's words, or a fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string")
    return inWords(error.message);
  return fallback;
}
