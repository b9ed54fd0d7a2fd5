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

/**
 * What the signed-in user may do: operationIds from GET /auth/permissions (the API's policy table).
 * An action is shown only when its operation is here; the API still decides every call.
 */
export const operations = signal<ReadonlySet<string>>(new Set());
export const can = (operationId: string) => operations.value.has(operationId);

async function signedIn(user: auth.User) {
  operations.value = new Set(await auth.permissions().catch(() => []));
  session.value = { status: "signedIn", user };
}

const NEXT_KEY = "inventory.next";

export async function restoreSession(): Promise<void> {
  const user = await auth.refresh().catch(() => null);
  if (user) await signedIn(user);
  else session.value = { status: "signedOut" };
}

export async function signInWithPassword(email: string, password: string, fallback: string) {
  const result = await auth.signIn(email, password, fallback);
  if (result.ok) await signedIn(result.user);
  return result;
}

export async function signOut(): Promise<void> {
  await auth.signOut();
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
