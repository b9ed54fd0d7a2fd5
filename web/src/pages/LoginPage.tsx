import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { Bootstrap } from "../api/auth";
import { Layout } from "../components/Layout";
import { Button, Field, Notice, Spinner } from "../components/ui";
import { query } from "../state/router";
import {
  continueAfterSignIn,
  currentUser,
  leaveForSignIn,
  loadBootstrap,
  session,
  signInWithPassword,
} from "../state/session";
import { t } from "../strings";

/**
 * The workspace's sign-in (docs/sso.md#the-sso-only-gate): an unknown workspace says so; with the SSO-only gate
 * on, SSO (and the social login) first and the owner's password form behind a button; otherwise the
 * password form and the social login. SSO leaves for the identity provider and comes back here
 * with the refresh cookie set; the page then goes on to where the person was going (`next`).
 */
export function LoginPage() {
  const next = query.value.get("next");
  const boot = useSignal<Bootstrap | null | "loading">("loading");
  const revealed = useSignal(false);
  const error = useSignal("");
  const busy = useSignal(false);
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (session.value.status === "signedIn") continueAfterSignIn(next);
  }, [session.value.status]);
  useEffect(() => {
    void loadBootstrap().then((b) => {
      boot.value = b;
    });
  }, []);

  // Signed in: the effect above moves on to the page asked for.
  if (currentUser.value)
    return (
      <Layout title={t.signIn.signedInTitle}>
        <Spinner label={t.loading} />
      </Layout>
    );
  const b = boot.value;
  if (b === "loading")
    return (
      <Layout title={t.signIn.title}>
        <Spinner label={t.loading} />
      </Layout>
    );
  if (b === null)
    return (
      <Layout title={t.signIn.title}>
        <Notice tone="error">{t.unreachable}</Notice>
      </Layout>
    );
  if (!b.exists)
    return (
      <Layout title={t.signIn.noWorkspaceTitle}>
        <Notice tone="error">{t.signIn.noWorkspace}</Notice>
      </Layout>
    );

  const gate = b.ssoLoginEnabled === true;
  const showForm = !gate || revealed.value;

  /** SSO and the social login are links: followed at once unless a sign-out must reach the server first. */
  function leave(event: MouseEvent) {
    if (!leaveForSignIn((event.currentTarget as HTMLAnchorElement).href, next)) event.preventDefault();
  }

  async function submit(event: Event) {
    event.preventDefault();
    error.value = "";
    const e = email.current?.value.trim() ?? "";
    const p = password.current?.value ?? "";
    if (!e || !p) {
      error.value = t.signIn.missing;
      (e ? password : email).current?.focus();
      return;
    }
    busy.value = true;
    const result = await signInWithPassword(e, p, t.signIn.failed).catch(() => ({
      ok: false as const,
      message: t.unreachable,
    }));
    busy.value = false;
    if (!result.ok) {
      error.value = result.message;
      password.current?.focus();
    }
  }

  return (
    <Layout title={t.signIn.title}>
      {error.value && <Notice tone="error">{error.value}</Notice>}
      <div class="stack">
        {gate && (
          <a class="btn btn-primary" href="/auth/sso-login" onClick={leave}>
            {t.signIn.sso}
          </a>
        )}
        {b.socialLogin && (
          <a class="btn btn-plain" href="/api/v1/auth/social-login" onClick={leave}>
            {t.signIn.social(b.socialLogin.name)}
          </a>
        )}
        {gate && (
          <Button
            aria-expanded={revealed.value}
            aria-controls="password-form"
            onClick={() => {
              revealed.value = !revealed.value;
              if (revealed.value) setTimeout(() => email.current?.focus());
            }}
          >
            {t.signIn.reveal}
          </Button>
        )}
      </div>
      {showForm && (
        <form id="password-form" noValidate onSubmit={submit}>
          <Field id="email" label={t.signIn.email}>
            <input id="email" ref={email} name="email" type="email" autoComplete="username" required />
          </Field>
          <Field id="password" label={t.signIn.password}>
            <input
              id="password"
              ref={password}
              name="password"
              type="password"
              autoComplete="current-password"
              required
            />
          </Field>
          <Button type="submit" variant="primary" disabled={busy.value}>
            {t.signIn.submit}
          </Button>
          <a class="btn btn-plain" href="/reset-password">
            {t.reset.forgot}
          </a>
        </form>
      )}
      {gate && <p class="hint">{t.signIn.gateNote}</p>}
    </Layout>
  );
}
