import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { Bootstrap } from "../api/auth";
import { Layout } from "../components/Layout";
import { Button, Field, Notice, Spinner } from "../components/ui";
import { navigate } from "../state/router";
import { joinWithInvite, leaveForSignIn, loadBootstrap } from "../state/session";
import { t } from "../strings";

/** The link's secret, from the fragment (never sent to a server); read once, then off the address bar. */
export function tokenFromHash(): string {
  const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return token;
}

/**
 * `/join#token=…`, the page an invite's `acceptUrl` opens: choose a password (and a name) and
 * land signed in; or, when the workspace signs in with SSO, continue there (the first SSO sign-in
 * takes the invite).
 */
export default function JoinPage() {
  const token = useSignal(tokenFromHash());
  const boot = useSignal<Bootstrap | null | "loading">("loading");
  const error = useSignal("");
  const busy = useSignal(false);
  useEffect(() => {
    void loadBootstrap().then((b) => {
      boot.value = b;
    });
  }, []);
  const b = boot.value;
  if (b === "loading")
    return (
      <Layout title={t.join.title}>
        <Spinner label={t.loading} />
      </Layout>
    );
  if (!token.value)
    return (
      <Layout title={t.join.title}>
        <Notice tone="error">{t.join.noToken}</Notice>
      </Layout>
    );
  const gate = b !== null && b.ssoLoginEnabled === true;
  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const password = String(form.get("password") ?? "");
    if (password.length < 10) {
      error.value = t.join.short;
      return;
    }
    error.value = "";
    busy.value = true;
    const result = await joinWithInvite(
      token.value,
      password,
      String(form.get("name") ?? "").trim(),
      t.join.failed,
    ).catch(() => ({ ok: false as const, message: t.unreachable }));
    busy.value = false;
    if (result.ok) navigate("/", { replace: true });
    else error.value = result.message;
  }
  return (
    <Layout title={t.join.title}>
      {error.value && <Notice tone="error">{error.value}</Notice>}
      {gate ? (
        <>
          <p>{t.join.ssoNote}</p>
          <a
            class="btn btn-primary"
            href="/auth/sso-login"
            onClick={(event) => {
              if (!leaveForSignIn((event.currentTarget as HTMLAnchorElement).href, "/")) event.preventDefault();
            }}
          >
            {t.join.sso}
          </a>
        </>
      ) : (
        <form noValidate onSubmit={submit}>
          <p>{t.join.intro}</p>
          <Field id="join-name" label={t.join.name}>
            <input id="join-name" name="name" type="text" autoComplete="name" />
          </Field>
          <Field id="join-password" label={t.join.password} hint={t.join.passwordHint}>
            <input
              id="join-password"
              name="password"
              type="password"
              autoComplete="new-password"
              aria-describedby="join-password-hint"
              required
            />
          </Field>
          <Button type="submit" variant="primary" disabled={busy.value}>
            {t.join.submit}
          </Button>
        </form>
      )}
    </Layout>
  );
}
