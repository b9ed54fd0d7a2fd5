/**
 * Who is signed in. On start the app trades the refresh cookie (if any) for an access token; the
 * pages read `session` and call the verbs below. The return path survives the SSO round trip in
 * sessionStorage (it is a path, never a token). Who was signed in last (the user and their
 * permissions, never a token) is kept in localStorage so the app opens offline; signing out
 * forgets it.
 *
 * A phone can be shared, so signing out holds without the network (docs/field-app.md "A shared
 * phone"): the sign-out is written down first ("logout pending"); while it is, the cookie is never
 * traded for a session, and the logout is sent again whenever the service can be reached, until it
 * has revoked the cookie's session and cleared the cookie.
 */
import { computed, effect, signal } from "@preact/signals";
import * as auth from "../api/auth";
import { hasAccessToken } from "../api/client";
import { type Owner, useOwner } from "../platform/offline-db";
import { online } from "./network";
import { forgetCopies } from "./offline-copy";
import { navigate, safeReturnPath } from "./router";
import { replayAll } from "./scan-queue";
import { replaySignatures } from "./signature-queue";
import { replayMoves } from "./stock-queue";

export type SessionState = { status: "loading" } | { status: "signedOut" } | { status: "signedIn"; user: auth.User };

export const session = signal<SessionState>({ status: "loading" });
export const currentUser = computed(() => (session.value.status === "signedIn" ? session.value.user : null));

/**
 * What the signed-in user may do: operationIds from GET /auth/permissions (the API's policy table).
 * An action is shown only when its operation is here; the API still decides every call.
 */
export const operations = signal<ReadonlySet<string>>(new Set());
export const can = (operationId: string) => operations.value.has(operationId);

/** The signed-in user's person (same email): what they hold and ask for is this person's. */
export const personId = signal<string | null>(null);

const LAST_KEY = "inventory.lastUser";
type Remembered = { user: auth.User; operations: string[]; personId?: string | null };

/** The user of this workspace (one origin per workspace host) whose offline stores are open. */
const ownerOf = (user: auth.User): Owner => ({ workspace: location.host, userId: user.id });

async function signedIn(user: auth.User) {
  useOwner(ownerOf(user));
  const perms = await auth.permissions().catch(() => ({ operations: [] as string[], personId: null }));
  operations.value = new Set(perms.operations);
  personId.value = perms.personId;
  localStorage.setItem(
    LAST_KEY,
    JSON.stringify({ user, operations: perms.operations, personId: perms.personId } satisfies Remembered),
  );
  session.value = { status: "signedIn", user };
  // What this user left queued (offline, or when they signed out) goes out now, as them.
  void replayAll();
  void replayMoves();
  void replaySignatures();
}

function remembered(): Remembered | null {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) ?? "null") as Remembered | null;
  } catch {
    return null;
  }
}

/** A sign-out the server has not confirmed yet: whose, on which workspace, since when. */
const LOGOUT_KEY = "inventory.logoutPending";
type PendingLogout = { userId: string; workspace: string; since: string };

function pendingLogout(): PendingLogout | null {
  try {
    const p = JSON.parse(localStorage.getItem(LOGOUT_KEY) ?? "null") as PendingLogout | null;
    return p && p.workspace === location.host ? p : null;
  } catch {
    // Unreadable: still a sign-out nobody confirmed.
    return { userId: "", workspace: location.host, since: "" };
  }
}

auth.blockRefresh(() => pendingLogout() !== null);

let flushing: Promise<boolean> | null = null;

/** Sends a pending logout; true when none is pending any more. */
export function flushLogout(): Promise<boolean> {
  if (!pendingLogout()) return Promise.resolve(true);
  flushing ??= auth
    .logout()
    .then((done) => {
      if (done) localStorage.removeItem(LOGOUT_KEY);
      return done;
    })
    .finally(() => {
      flushing = null;
    });
  return flushing;
}

const NEXT_KEY = "inventory.next";

export async function restoreSession(): Promise<void> {
  if (pendingLogout()) {
    // Signed out while the service could not be told: that session is never restored.
    localStorage.removeItem(LAST_KEY);
    operations.value = new Set();
    session.value = { status: "signedOut" };
    void flushLogout();
    return;
  }
  try {
    const user = await auth.refresh();
    if (user) return await signedIn(user);
    localStorage.removeItem(LAST_KEY);
    session.value = { status: "signedOut" };
  } catch {
    // The service cannot be reached (offline): carry on as who was signed in last. Calls fail or
    // wait in the offline queue; back online the cookie is tried again (below).
    const last = remembered();
    if (last) useOwner(ownerOf(last.user));
    operations.value = new Set(last?.operations ?? []);
    personId.value = last?.personId ?? null;
    session.value = last ? { status: "signedIn", user: last.user } : { status: "signedOut" };
  }
}

// Back online (the browser says so, or a request was answered again): a pending logout goes
// first (restoreSession sends it), else the cookie is tried again.
let wasOnline = online.peek();
effect(() => {
  const now = online.value;
  if (now && !wasOnline && !hasAccessToken()) void restoreSession();
  wasOnline = now;
});

export function signInWithPassword(email: string, password: string, fallback: string) {
  return signInBy(() => auth.signIn(email, password, fallback));
}

/** Joining from an invite link signs the new user in. */
export const joinWithInvite = (token: string, password: string, name: string, fallback: string) =>
  signInBy(() => auth.acceptInvite(token, password, name, fallback));

/** A reset link's new password signs the user in. */
export const resetPassword = (token: string, password: string, fallback: string) =>
  signInBy(() => auth.confirmReset(token, password, fallback));

export const askForReset = auth.requestReset;

async function signInBy(call: () => Promise<auth.SignInResult>) {
  // The previous user's session is revoked first when the server can be told; in any case the
  // new sign-in replaces the cookie, so the previous session cannot come back on this phone.
  await flushLogout();
  const result = await call();
  if (result.ok) {
    localStorage.removeItem(LOGOUT_KEY);
    await signedIn(result.user);
  }
  return result;
}

/**
 * Signs out, with or without the network. The pending logout is written before anything else (it
 * holds if the page closes now); the user's offline copies go; their queued scans stay in their
 * own store, sent when they sign in again and never as anyone else.
 */
export async function signOut(): Promise<void> {
  const user = currentUser.value;
  localStorage.setItem(
    LOGOUT_KEY,
    JSON.stringify({
      userId: user?.id ?? "",
      workspace: location.host,
      since: new Date().toISOString(),
    } satisfies PendingLogout),
  );
  auth.forgetToken();
  localStorage.removeItem(LAST_KEY);
  await forgetCopies().catch(() => undefined);
  useOwner(null);
  operations.value = new Set();
  session.value = { status: "signedOut" };
  navigate("/login", { replace: true });
  await flushLogout();
}

/** Before leaving for the identity provider: where to come back to. */
export function rememberReturnPath(next: string | null): void {
  const safe = safeReturnPath(next);
  if (safe) sessionStorage.setItem(NEXT_KEY, safe);
  else sessionStorage.removeItem(NEXT_KEY);
}

/**
 * Leaving for SSO or the social login: true when the link may be followed now. With a sign-out
 * still pending, the logout is sent first (else the session the identity provider sets up would be
 * taken for the old one and signed out on return), then the page goes on.
 */
export function leaveForSignIn(href: string, next: string | null): boolean {
  rememberReturnPath(next);
  if (!pendingLogout()) return true;
  void flushLogout().then(() => location.assign(href));
  return false;
}

/** After sign-in: the page asked for (query `next`, or the one remembered across SSO), else home. */
export function continueAfterSignIn(next: string | null): void {
  const target = safeReturnPath(next) ?? safeReturnPath(sessionStorage.getItem(NEXT_KEY)) ?? "/";
  sessionStorage.removeItem(NEXT_KEY);
  navigate(target, { replace: true });
}

export const loadBootstrap = auth.bootstrap;
