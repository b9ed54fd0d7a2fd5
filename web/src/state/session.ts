/**
 * Who is signed in. On start the app trades the refresh cookie (if any) for an access token; the
 * pages read `session` and call the verbs below. The return path survives the SSO round trip in
 * sessionStorage (it is a path, never a token). Who was signed in last (the user and their
 * permissions, never a token) is kept in localStorage so the app opens offline; signing out
 * forgets it.
 */
import { computed, signal } from "@preact/signals";
import * as auth from "../api/auth";
import { hasAccessToken } from "../api/client";
import { navigate, safeReturnPath } from "./router";

export type SessionState = { status: "loading" } | { status: "signedOut" } | { status: "signedIn"; user: auth.User };

export const session = signal<SessionState>({ status: "loading" });
export const currentUser = computed(() => (session.value.status === "signedIn" ? session.value.user : null));

/**
 * What the signed-in user may do: operationIds from GET /auth/permissions (the API's policy table).
 * An action is shown only when its operation is here; the API still decides every call.
 */
export const operations = signal<ReadonlySet<string>>(new Set());
export const can = (operationId: string) => operations.value.has(operationId);

const LAST_KEY = "inventory.lastUser";
type Remembered = { user: auth.User; operations: string[] };

async function signedIn(user: auth.User) {
  const ops = await auth.permissions().catch(() => [] as string[]);
  operations.value = new Set(ops);
  localStorage.setItem(LAST_KEY, JSON.stringify({ user, operations: ops } satisfies Remembered));
  session.value = { status: "signedIn", user };
}

function remembered(): Remembered | null {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) ?? "null") as Remembered | null;
  } catch {
    return null;
  }
}

const NEXT_KEY = "inventory.next";

export async function restoreSession(): Promise<void> {
  try {
    const user = await auth.refresh();
    if (user) return await signedIn(user);
    localStorage.removeItem(LAST_KEY);
    session.value = { status: "signedOut" };
  } catch {
    // The service cannot be reached (offline): carry on as who was signed in last. Calls fail or
    // wait in the offline queue; back online the cookie is tried again (below).
    const last = remembered();
    operations.value = new Set(last?.operations ?? []);
    session.value = last ? { status: "signedIn", user: last.user } : { status: "signedOut" };
  }
}

window.addEventListener("online", () => {
  if (!hasAccessToken()) void restoreSession();
});

export async function signInWithPassword(email: string, password: string, fallback: string) {
  const result = await auth.signIn(email, password, fallback);
  if (result.ok) await signedIn(result.user);
  return result;
}

export async function signOut(): Promise<void> {
  await auth.signOut();
  localStorage.removeItem(LAST_KEY);
  operations.value = new Set();
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
