/**
 * Sign-in, refresh and sign-out through the public auth routes. Browsers keep the refresh token in
 * the `inventory_refresh` cookie (HttpOnly, SameSite=Strict, path /api/v1/auth/): login asks for
 * it with `refreshCookie: true`, refresh and logout send an empty body so the cookie is used.
 */
import type { components } from "../../../client/index";
import { api, authed, messageOf, onUnauthenticated, setAccessToken } from "./client";

export type User = components["schemas"]["User"];
export type Bootstrap = components["schemas"]["AuthBootstrap"];

export type SignInResult = { ok: true; user: User } | { ok: false; message: string };

let renewTimer: ReturnType<typeof setTimeout> | undefined;
let inflight: Promise<User | null> | null = null;
let refreshBlocked: () => boolean = () => false;

/** While this says so (a sign-out the server has not heard of yet), the cookie is never traded. */
export const blockRefresh = (blocked: () => boolean) => {
  refreshBlocked = blocked;
};

function accept(session: { accessToken: string; expiresIn: number; user: User }): User {
  setAccessToken(session.accessToken, session.user.id);
  clearTimeout(renewTimer);
  // Renew a minute before the access token expires, so a scan never waits on a refresh.
  renewTimer = setTimeout(() => void refresh(), Math.max(10, session.expiresIn - 60) * 1000);
  return session.user;
}

export async function signIn(email: string, password: string, fallback: string): Promise<SignInResult> {
  const { data, error } = await api.POST("/auth/login", { body: { email, password, refreshCookie: true } });
  if (data) return { ok: true, user: accept(data) };
  return { ok: false, message: messageOf(error, fallback) };
}

/** Trades the refresh cookie for an access token; null when there is no (valid) session. */
export function refresh(): Promise<User | null> {
  if (refreshBlocked()) return Promise.resolve(null);
  // One refresh at a time: the cookie rotates, so two at once would race.
  inflight ??= (async () => {
    try {
      const { data } = await api.POST("/auth/refresh", { body: {} });
      if (data) return accept(data);
      setAccessToken(null);
      return null;
    } finally {
      inflight = null;
    }
  })();
  return inflight;
}

onUnauthenticated(async () => (await refresh()) !== null);

/** Drops the access token (in memory only) and stops renewing it: this page is signed out. */
export function forgetToken(): void {
  clearTimeout(renewTimer);
  setAccessToken(null);
}

/**
 * Revokes the refresh cookie's session and clears the cookie: true once the server has done so,
 * false when it could not be reached (or did not answer yes), so the caller tries again later.
 */
export async function logout(): Promise<boolean> {
  const answer = await api.POST("/auth/logout", { body: {} }).catch(() => null);
  return answer?.response.ok === true;
}

export async function bootstrap(): Promise<Bootstrap | null> {
  const { data } = await api.GET("/auth/bootstrap").catch(() => ({ data: undefined }));
  return data ?? null;
}

/**
 * The operationIds the signed-in user may call (role and plan), from the API's policy table, and
 * the user's person (what they hold and ask for is theirs).
 */
export async function permissions(): Promise<{ operations: string[]; personId: string | null }> {
  const { data } = await authed(() => api.GET("/auth/permissions"));
  return { operations: data?.operations ?? [], personId: data?.personId ?? null };
}

/** Joins from an invite link: sets the password and signs in (the refresh token as the cookie). */
export async function acceptInvite(
  token: string,
  password: string,
  name: string,
  fallback: string,
): Promise<SignInResult> {
  const body = { token, password, refreshCookie: true, ...(name ? { name } : {}) };
  const { data, error } = await api.POST("/auth/invites/accept", { body });
  if (data) return { ok: true, user: accept(data) };
  return { ok: false, message: messageOf(error, fallback) };
}

/** Asks for a reset link; the answer is the same whether the email is known or not. */
export async function requestReset(email: string): Promise<boolean> {
  const { response } = await api.POST("/auth/password-reset", { body: { email } });
  return response.ok;
}

/** Sets a new password with a reset link's token and signs in. */
export async function confirmReset(token: string, password: string, fallback: string): Promise<SignInResult> {
  const { data, error } = await api.POST("/auth/password-reset/confirm", {
    body: { token, password, refreshCookie: true },
  });
  if (data) return { ok: true, user: accept(data) };
  return { ok: false, message: messageOf(error, fallback) };
}

export async function me(): Promise<User | null> {
  const { data } = await authed(() => api.GET("/auth/me"));
  return data ?? null;
}
