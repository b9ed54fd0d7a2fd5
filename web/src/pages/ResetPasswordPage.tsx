import { useSignal } from "@preact/signals";
import { Layout } from "../components/Layout";
import { Button, Field, Notice } from "../components/ui";
import { navigate } from "../state/router";
import { askForReset, resetPassword } from "../state/session";
import { t } from "../strings";
import { tokenFromHash } from "./JoinPage";

/**
 * `/reset-password`: without a token, ask for a link by email (the answer is the same whether the
 * email is known or not); with the link's `#token=…`, choose a new password and land signed in.
 */
export default function ResetPasswordPage() {
  const token = useSignal(tokenFromHash());
  const error = useSignal("");
  const done = useSignal(false);
  const busy = useSignal(false);
  async function ask(e: Event) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget as HTMLFormElement).get("email") ?? "").trim();
    if (!email) {
      error.value = t.signIn.missing;
      return;
    }
    error.value = "";
    busy.value = true;
    const ok = await askForReset(email).catch(() => false);
    busy.value = false;
    if (ok) done.value = true;
    else error.value = t.unreachable;
  }
  async function set(e: Event) {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget as HTMLFormElement).get("password") ?? "");
    if (password.length < 10) {
      error.value = t.join.short;
      return;
    }
    error.value = "";
    busy.value = true;
    const result = await resetPassword(token.value, password, t.reset.failed).catch(() => ({
      ok: false as const,
      message: t.unreachable,
    }));
    busy.value = false;
    if (result.ok) navigate("/", { replace: true });
    else error.value = result.message;
  }
  if (token.value)
    return (
      <Layout title={t.reset.setTitle}>
        {error.value && <Notice tone="error">{error.value}</Notice>}
        <form noValidate onSubmit={set}>
          <Field id="reset-password" label={t.reset.password} hint={t.join.passwordHint}>
            <input
              id="reset-password"
              name="password"
              type="password"
              autoComplete="new-password"
              aria-describedby="reset-password-hint"
              required
            />
          </Field>
          <Button type="submit" variant="primary" disabled={busy.value}>
            {t.reset.set}
          </Button>
        </form>
      </Layout>
    );
  return (
    <Layout title={t.reset.title}>
      {error.value && <Notice tone="error">{error.value}</Notice>}
      {done.value ? (
        <Notice tone="info">{t.reset.asked}</Notice>
      ) : (
        <form noValidate onSubmit={ask}>
          <p>{t.reset.askIntro}</p>
          <Field id="reset-email" label={t.reset.email}>
            <input id="reset-email" name="email" type="email" autoComplete="username" required />
          </Field>
          <Button type="submit" variant="primary" disabled={busy.value}>
            {t.reset.ask}
          </Button>
        </form>
      )}
    </Layout>
  );
}
