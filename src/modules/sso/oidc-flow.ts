import type { SsoConfigRow } from "../../access/sso/gate";
import {
  authorizationUrl,
  checkIssParameter,
  completeCodeFlow,
  discover,
  newNonce,
  OidcError,
  type OidcProviderConfig,
  OidcUnreachable,
  pkcePair,
} from "../../access/sso/oidc";
import { openSecret, secretKeyMaterial } from "../../access/sso/secret-box";
import type { OidcSettings } from "../../db/control/sso";
import type { Bindings, TenantDb } from "../../env";
import { ApiError } from "../../platform/errors";
import { outboundPolicyFor } from "../../platform/outbound";
import { consumeRequest, createSsoRequest, findOpenRequest } from "./requests";
import type { SpUrls } from "./urls";

/** The workspace's own OIDC provider, with its client secret unsealed for this request only. */
export async function workspaceProvider(
  env: Bindings,
  row: SsoConfigRow & { settings: OidcSettings },
): Promise<OidcProviderConfig> {
  if (!row.clientSecretEnc) throw new ApiError("validation_failed", "OIDC is configured without a client secret.");
  const s = row.settings;
  if (!s.issuerUrl && !s.discoveryUrl)
    throw new ApiError("validation_failed", "OIDC is configured without issuerUrl or discoveryUrl.");
  return {
    issuer: s.issuerUrl,
    discoveryUrl: s.discoveryUrl,
    clientId: s.clientId,
    clientSecret: await openSecret(secretKeyMaterial(env), row.tenantId, row.clientSecretEnc),
    scopes: s.scopes,
  };
}

/** The platform's social login (docs/sso.md#social-login-platform-level): an OIDC provider the operator sets in secrets. */
export function socialProvider(env: Bindings): OidcProviderConfig | null {
  if (!env.SOCIAL_OIDC_ISSUER || !env.SOCIAL_OIDC_CLIENT_ID || !env.SOCIAL_OIDC_CLIENT_SECRET) return null;
  return {
    issuer: env.SOCIAL_OIDC_ISSUER,
    discoveryUrl: null,
    clientId: env.SOCIAL_OIDC_CLIENT_ID,
    clientSecret: env.SOCIAL_OIDC_CLIENT_SECRET,
    scopes: "openid email profile",
  };
}

/** One sentence, however the cause ends (the fetch errors end with their own period). */
const sentence = (text: string) => `${text.replace(/[.\s]+$/, "")}.`;

const refused = (err: unknown): never => {
  if (err instanceof OidcUnreachable)
    throw new ApiError("idp_unreachable", sentence(`The identity provider could not be reached: ${err.message}`));
  if (err instanceof OidcError)
    throw new ApiError("unauthenticated", sentence(`The identity provider's answer was refused: ${err.message}`));
  throw err;
};

/** Stores state, nonce and PKCE verifier (single use) and returns the provider's authorization URL. */
export async function startOidcLogin(
  env: Bindings,
  db: TenantDb,
  provider: OidcProviderConfig,
  kind: "oidc" | "social",
  urls: SpUrls,
  now: Date,
): Promise<{ url: string; state: string }> {
  const meta = await discover(provider, outboundPolicyFor(env.ENVIRONMENT)).catch(refused);
  const nonce = newNonce();
  const pkce = await pkcePair();
  const state = await createSsoRequest(db, kind, nonce, pkce.verifier, now);
  return {
    url: authorizationUrl(meta, provider, urls.oidcRedirectUri, { state, nonce, challenge: pkce.challenge }),
    state,
  };
}

export interface OidcCallbackQuery {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

/**
 * The redirect back: `state` names this workspace's open request (workspace OIDC or social) and is
 * consumed before the code is redeemed, so a state answers once; the `iss` parameter is checked
 * (RFC 9207) before the code goes anywhere; then the code flow with PKCE, nonce and ID token checks.
 */
export async function finishOidcLogin(
  env: Bindings,
  db: TenantDb,
  providerFor: (kind: "oidc" | "social") => Promise<OidcProviderConfig>,
  urls: SpUrls,
  q: OidcCallbackQuery,
  now: Date,
) {
  const request = await findOpenRequest(db, q.state, ["oidc", "social"], now);
  await consumeRequest(db, request, now);
  if (q.error)
    throw new ApiError(
      "unauthenticated",
      `The identity provider did not sign you in: ${q.error_description ?? q.error}.`,
    );
  if (!q.code) throw new ApiError("validation_failed", "The identity provider sent no authorization code.");
  const kind = request.kind === "social" ? "social" : "oidc";
  const provider = await providerFor(kind);
  const policy = outboundPolicyFor(env.ENVIRONMENT);
  try {
    const meta = await discover(provider, policy);
    checkIssParameter(meta, q.iss);
    return {
      kind,
      identity: await completeCodeFlow(meta, provider, policy, {
        redirectUri: urls.oidcRedirectUri,
        code: q.code,
        verifier: request.codeVerifier ?? "",
        nonce: request.requestId,
      }),
    };
  } catch (err) {
    return refused(err);
  }
}
