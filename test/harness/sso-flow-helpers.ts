import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { ErrorBody } from "../../src/platform/schemas";
import { workerFetch } from "./contract";
import { userJwt } from "./principals";
import { spOf } from "./sso-helpers";
import { api, type TestTenant } from "./tenant";

/** A browser-like request to the Worker: no credentials, redirects not followed. */
export async function browser(url: string, init: RequestInit = {}) {
  return workerFetch(new Request(url, { redirect: "manual", ...init }));
}

export async function inflateBase64(b64: string): Promise<string> {
  const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

/** Saves a SAML config pointing at the samlify test IdP. */
export async function configureSaml(t: TestTenant, extra: Record<string, unknown> = {}) {
  const res = await api(t, "/tenants/current/saml-config", {
    method: "PATCH",
    auth: { jwt: await userJwt(t) },
    body: {
      provider: "saml",
      entityId: inject("samlIdpEntity"),
      acsUrl: spOf(t).acsUrl,
      idpCertificate: inject("samlIdpCert"),
      idpSsoUrl: "https://saml-idp.test/sso",
      ...extra,
    },
  });
  if (res.status !== 200) throw new Error(`saml config: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Starts an SP-initiated sign-in: the AuthnRequest's ID and our RelayState. */
export async function startSaml(t: TestTenant) {
  const res = await browser(`${spOf(t).origin}/api/v1/auth/sso-login`);
  if (res.status !== 302) throw new Error(`sso-login: ${res.status} ${await res.text()}`);
  const location = new URL(res.headers.get("location")!);
  const xml = await inflateBase64(location.searchParams.get("SAMLRequest")!);
  return {
    location,
    xml,
    requestId: /\sID="([^"]+)"/.exec(xml)![1]!,
    relayState: location.searchParams.get("RelayState")!,
    setCookie: res.headers.get("set-cookie") ?? "",
  };
}

/**
 * Has the samlify IdP (Node, loopback) sign a response for `email` to our request. `signing`: what
 * carries the signature; by default the Assertion, as our metadata asks.
 */
export async function idpResponse(
  t: TestTenant,
  inResponseTo: string,
  email: string,
  signing: "assertion" | "response" | "both" = "assertion",
): Promise<string> {
  const spMetadata = await (await browser(`${spOf(t).origin}/api/v1/auth/saml/metadata`)).text();
  const res = await fetch(`${inject("samlIdpUrl")}/saml/sign`, {
    method: "POST",
    body: JSON.stringify({ spMetadata, inResponseTo, email, signing }),
  });
  if (res.status !== 200) throw new Error(`samlify: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { samlResponse: string }).samlResponse;
}

/**
 * Posts to our ACS as the browser would (HTTP-POST binding). The browser that started the
 * sign-in holds the `sso_state` cookie equal to its RelayState; `cookie` overrides that.
 */
export async function postAcs<T = ErrorBody>(
  t: TestTenant,
  samlResponse: string,
  relayState: string,
  accept = "application/json",
  cookie: string | null = `sso_state=${relayState}`,
) {
  const res = await browser(spOf(t).acsUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML page
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

export { env };
