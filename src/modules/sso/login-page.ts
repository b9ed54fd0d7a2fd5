import { htmlPage } from "./html";

/**
 * The sign-in page (GET /login on the workspace host). Static markup; a small script reads
 * GET /api/v1/auth/bootstrap and shows what SPEC 5 rules 3-5 say:
 * - unknown workspace: a message, nothing else;
 * - SSO-only gate on: the SSO button (and the social login when there is one); the password form
 *   hidden behind "Owner sign-in with password" (break-glass);
 * - otherwise: the password form and the social login; no SSO button.
 * The password form posts JSON to POST /api/v1/auth/login; the session (the same token pair as
 * every sign-in) is kept in sessionStorage, where the SSO callbacks also leave theirs.
 */
const BODY = `
<h1 id="title">Sign in</h1>
<p id="status" role="status" aria-live="polite"></p>
<p id="error" class="error" role="alert" aria-live="assertive"></p>

<section id="signed-in" hidden aria-labelledby="signed-in-text">
  <p id="signed-in-text"></p>
  <button type="button" id="sign-out">Sign out</button>
</section>

<section id="choices" hidden>
  <a id="sso" class="button primary" href="/auth/sso-login" hidden>Sign in with single sign-on</a>
  <a id="social" class="button" href="/api/v1/auth/social-login" hidden>Sign in with social login</a>
  <button type="button" id="reveal" aria-expanded="false" aria-controls="password-form" hidden>Owner sign-in with password</button>
  <form id="password-form" hidden novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit" class="primary" id="submit">Sign in with password</button>
  </form>
  <p id="gate-note" class="note" hidden>This workspace uses single sign-on. The password form is for the workspace owner.</p>
</section>`;

const SCRIPT = `(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "inventory.session";
  const show = (id, on) => { $(id).hidden = !on; };
  const say = (id, text) => { $(id).textContent = text; };

  function signedIn(session) {
    show("choices", false);
    show("signed-in", true);
    say("title", "Signed in");
    say("signed-in-text", "Signed in as " + session.user.email + ".");
    $("sign-out").focus();
  }

  $("sign-out").addEventListener("click", async () => {
    const session = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
    if (session && session.refreshToken) {
      await fetch("/api/v1/auth/logout", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refreshToken: session.refreshToken }) }).catch(() => {});
    }
    location.replace("/login");
  });

  $("reveal").addEventListener("click", () => {
    const open = $("password-form").hidden;
    show("password-form", open);
    $("reveal").setAttribute("aria-expanded", String(open));
    if (open) $("email").focus();
  });

  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    say("error", "");
    const email = $("email").value.trim();
    const password = $("password").value;
    if (!email || !password) { say("error", "Enter your email and password."); (email ? $("password") : $("email")).focus(); return; }
    $("submit").disabled = true;
    try {
      const res = await fetch("/api/v1/auth/login", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ email, password }) });
      const body = await res.json().catch(() => ({}));
      if (res.ok) { sessionStorage.setItem(KEY, JSON.stringify(body)); signedIn(body); return; }
      say("error", body.message || "Sign-in failed.");
      $("password").focus();
    } catch {
      say("error", "The service could not be reached. Try again.");
    } finally {
      $("submit").disabled = false;
    }
  });

  async function start() {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (saved && saved.user) { signedIn(saved); return; }
    say("status", "Loading…");
    let boot;
    try {
      boot = await (await fetch("/api/v1/auth/bootstrap", { headers: { accept: "application/json" } })).json();
    } catch {
      say("status", "");
      say("error", "The service could not be reached. Reload the page to try again.");
      return;
    }
    say("status", "");
    if (!boot.exists) { say("title", "Workspace not found"); say("error", "There is no workspace at this address. Check the workspace URL."); return; }
    const gate = boot.ssoLoginEnabled === true;
    show("choices", true);
    show("sso", gate);
    if (boot.socialLogin) { say("social", "Sign in with " + boot.socialLogin.name); show("social", true); }
    show("reveal", gate);
    show("gate-note", gate);
    show("password-form", !gate);
  }
  start();
})();`;

export function loginPage(nonce: string): string {
  return htmlPage("Sign in", BODY, nonce, SCRIPT);
}
