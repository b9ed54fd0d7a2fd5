/**
 * Who is signed in. On start the app trades the refresh cookie (if any) for an access token; the
 * pages read `session` and call the verbs below. The return path survives the SSO round trip in
 * sessionStorage (it is a path, never a token).
 */
import { computed, signal } from "@preact/signals";
import * as auth from "../api/auth";
import { navigate, safeReturnPath } from "./router";

export type SessionState = { status: "loading" } | { status: "signedOut" } | { status: "signedIn"; user: auth.User };

export const session = signal<SessionState>({ status: "loading" });
export const currentUser = computed(() => (session.value.status === "signedIn" ? session.value.user : null));

const NEXT_KEY = "inventory.next";

/**
 * The signed-in user's profile (no token) is kept so that the scanner opens offline after a
 * reload: its queued scans wait for the connection, and the first call back online renews the
 * access token through the cookie (or ends the session if the cookie is gone). Cleared on sign-out.
 */
const USER_KEY = "inventory.user";

export async function restoreSession(): Promise<void> {
  let user: auth.User | null;
  try {
    user = await auth.refresh();
  } catch {
    // The network is unreachable (not a refused cookie): offline, keep the last user.
    const kept = navigator.onLine ? null : localStorage.getItem(USER_KEY);
    session.value = kept ? { status: "signedIn", user: JSON.parse(kept) } : { status: "signedOut" };
    if (kept) window.addEventListener("online", () => void restoreSession(), { once: true });
    return;
  }
  keep(user);
  session.value = user ? { status: "signedIn", user } : { status: "signedOut" };
}

function keep(user: auth.User | null) {
  if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_KEY);
}

export async function signInWithPassword(email: string, password: string, fallback: string) {
  const result = await auth.signIn(email, password, fallback);
  if (result.ok) {
    keep(result.user);
    session.value = { status: "signedIn", user: result.user };
  }
  return result;
}

export async function signOut(): Promise<void> {
  await auth.signOut();
  keep(null);
  session.value = { status: "signedOut" };
  navigate("/login", { replace: true });
}

/** Before leaving for the identity provider: where to come back to. */
export function rememberReturnPath(next: string | null): void {
  const safe = safeReturnPath(next);
  if (safe) sessionStorage.setItem(NEXT_KEY, safe);
  else sessionStorage.removeItem(NEXT_KEY);
}

/** After sign-in: the page asked for (query `next`, or the one remembered across SSO), else home. */
export function continueAfterSignIn(next: string | null): void {
  const target = safeReturnPath(next) ?? safeReturnPath(sessionStorage.getItem(NEXT_KEY)) ?? "/";
  sessionStorage.removeItem(NEXT_KEY);
  navigate(target, { replace: true });
}

export const loadBootstrap = auth.bootstrap;
