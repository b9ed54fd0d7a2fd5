import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import { base64url } from "../../../platform/crypto";
import { guardedFetch, type OutboundPolicy } from "../../../platform/outbound";
import {
  getJson,
  OidcError,
  type OidcMetadata,
  type OidcProviderConfig,
  OidcUnreachable,
  OUTBOUND_TIMEOUT_MS,
} from "./discovery";

/** Asymmetric algorithms only: an HS256 ID token would be "signed" with our own client secret. */
export const ID_TOKEN_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];
const CLOCK_TOLERANCE_S = 60;

const random = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** PKCE (RFC 7636) S256: the verifier stays with us, the challenge goes to the IdP. */
export async function pkcePair() {
  const verifier = random(48);
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
  );
  return { verifier, challenge };
}
export const newNonce = () => random(24);

/** `openid` and `email` are always asked for: sign-in matches users by email. */
export function scopesOf(configured: string): string {
  const set = new Set(configured.split(/\s+/).filter(Boolean));
  set.add("openid");
  set.add("email");
  return [...set].join(" ");
}

export function authorizationUrl(
  meta: OidcMetadata,
  p: OidcProviderConfig,
  redirectUri: string,
  a: { state: string; nonce: string; challenge: string },
): string {
  const url = new URL(meta.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", p.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", scopesOf(p.scopes));
  url.searchParams.set("state", a.state);
  url.searchParams.set("nonce", a.nonce);
  url.searchParams.set("code_challenge", a.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.toString();
}

/**
 * RFC 9207: when the provider sends `iss` with the authorization response it must be exactly its
 * issuer; when it says it always sends one, a missing `iss` is refused too (mix-up defence).
 */
export function checkIssParameter(meta: OidcMetadata, iss: string | undefined): void {
  if (iss !== undefined && iss !== meta.issuer)
    throw new OidcError(`the authorization response came from issuer ${iss}, not ${meta.issuer}`);
  if (iss === undefined && meta.authorization_response_iss_parameter_supported === true)
    throw new OidcError("the authorization response has no iss parameter");
}

export interface OidcIdentity {
  email: string;
  name: string | null;
  subject: string;
}

async function exchangeCode(
  meta: OidcMetadata,
  p: OidcProviderConfig,
  policy: OutboundPolicy,
  redirectUri: string,
  code: string,
  verifier: string,
) {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const methods = meta.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (methods.includes("client_secret_basic")) {
    // RFC 6749 2.3.1: form-urlencode id and secret before base64.
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret)}`)}`;
  } else if (methods.includes("client_secret_post")) {
    form.set("client_id", p.clientId);
    form.set("client_secret", p.clientSecret);
  } else {
    throw new OidcError(
      "the provider supports neither client_secret_basic nor client_secret_post at its token endpoint",
    );
  }
  const res = await guardedFetch(meta.token_endpoint, {
    policy,
    method: "POST",
    headers,
    body: form.toString(),
    timeoutMs: OUTBOUND_TIMEOUT_MS,
    maxBodyBytes: 256 * 1024,
  });
  if (res.error) throw new OidcUnreachable(`could not reach the token endpoint: ${res.error}`);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    // reported below
  }
  if (res.status !== 200)
    throw new OidcError(
      `the token endpoint refused the code (HTTP ${res.status}${typeof body.error === "string" ? `: ${body.error}` : ""})`,
    );
  if (typeof body.id_token !== "string") throw new OidcError("the token endpoint returned no id_token");
  return { idToken: body.id_token, accessToken: typeof body.access_token === "string" ? body.access_token : null };
}

async function verifyIdToken(
  meta: OidcMetadata,
  p: OidcProviderConfig,
  policy: OutboundPolicy,
  idToken: string,
  nonce: string,
): Promise<JWTPayload> {
  const jwks = await getJson(meta.jwks_uri, policy, "provider's JWKS");
  if (!Array.isArray(jwks.keys)) throw new OidcError("the provider's JWKS has no keys");
  try {
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks as unknown as JSONWebKeySet), {
      issuer: meta.issuer,
      audience: p.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    });
    if (payload.nonce !== nonce) throw new OidcError("the ID token's nonce does not match this sign-in");
    // Several audiences: the authorized party must be us (OIDC Core 3.1.3.7).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== p.clientId)
      throw new OidcError("the ID token was issued to another client (azp)");
    return payload;
  } catch (err) {
    if (err instanceof OidcError) throw err;
    throw new OidcError(`the ID token was refused: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const verified = (v: unknown) => v === true || v === "true";

/**
 * The code exchange and everything after it: the client secret at the token endpoint (basic, or
 * post when that is all the provider takes), the PKCE verifier, the ID token verified with jose
 * against the provider's JWKS (issuer, audience, expiry, nonce, algorithm allowlist), and an email
 * that the provider says is verified, from the ID token or else from userinfo (same subject).
 */
export async function completeCodeFlow(
  meta: OidcMetadata,
  p: OidcProviderConfig,
  policy: OutboundPolicy,
  a: { redirectUri: string; code: string; verifier: string; nonce: string },
): Promise<OidcIdentity> {
  const tokens = await exchangeCode(meta, p, policy, a.redirectUri, a.code, a.verifier);
  const claims = await verifyIdToken(meta, p, policy, tokens.idToken, a.nonce);
  let source: Record<string, unknown> = claims;
  if (typeof claims.email !== "string" && meta.userinfo_endpoint && tokens.accessToken) {
    const info = await getJson(meta.userinfo_endpoint, policy, "userinfo", {
      authorization: `Bearer ${tokens.accessToken}`,
    });
    if (info.sub !== claims.sub) throw new OidcError("userinfo answered for another subject");
    source = info;
  }
  if (typeof source.email !== "string" || !source.email.includes("@"))
    throw new OidcError("the provider sent no email address");
  if (!verified(source.email_verified))
    throw new OidcError(`the provider has not verified the email address ${source.email}`);
  const name = typeof source.name === "string" ? source.name : typeof claims.name === "string" ? claims.name : null;
  return { email: source.email, name, subject: String(claims.sub) };
}
