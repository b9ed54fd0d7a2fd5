import { guardedFetch, type OutboundPolicy } from "../../../platform/outbound";

export interface OidcProviderConfig {
  /** Expected issuer; when absent, the discovery document's issuer is taken as is. */
  issuer: string | null;
  /** Discovery URL; default `<issuer>/.well-known/openid-configuration`. */
  discoveryUrl: string | null;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  code_challenge_methods_supported?: string[];
}

/** Why an OIDC sign-in cannot proceed: becomes a refusal page. */
export class OidcError extends Error {}

/** The provider could not be reached (network, timeout, 5xx): a 502, not the user's fault. */
export class OidcUnreachable extends OidcError {}

export const OUTBOUND_TIMEOUT_MS = 10_000;
const MAX_DOC_BYTES = 256 * 1024;

/** One guarded JSON GET (discovery, JWKS, userinfo): address rules, timeout, size, no redirects. */
export async function getJson(
  url: string,
  policy: OutboundPolicy,
  what: string,
  headers?: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await guardedFetch(url, {
    policy,
    method: "GET",
    timeoutMs: OUTBOUND_TIMEOUT_MS,
    maxBodyBytes: MAX_DOC_BYTES,
    headers: { accept: "application/json", ...headers },
  });
  if (res.error) throw new OidcUnreachable(`could not fetch the ${what}: ${res.error}`);
  if ((res.status ?? 0) >= 500) throw new OidcUnreachable(`the ${what} answered HTTP ${res.status}`);
  if (res.status !== 200) throw new OidcError(`the ${what} answered HTTP ${res.status}`);
  try {
    const value: unknown = JSON.parse(res.body);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not an object");
    return value as Record<string, unknown>;
  } catch {
    throw new OidcError(`the ${what} is not a JSON object`);
  }
}

const cache = new Map<string, { at: number; meta: OidcMetadata }>();
const CACHE_MS = 10 * 60_000;

export function discoveryUrlOf(p: Pick<OidcProviderConfig, "issuer" | "discoveryUrl">): string {
  if (p.discoveryUrl) return p.discoveryUrl;
  if (!p.issuer) throw new OidcError("OIDC is configured without issuerUrl or discoveryUrl");
  return `${p.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/**
 * The provider's metadata (OpenID Connect Discovery 1.0), cached per isolate for ten minutes. The
 * document's issuer must be exactly the configured one (section 4.3), so a discovery URL cannot
 * vouch for another issuer; every endpoint must be an absolute URL.
 */
export async function discover(p: OidcProviderConfig, policy: OutboundPolicy): Promise<OidcMetadata> {
  const url = discoveryUrlOf(p);
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < CACHE_MS && (!p.issuer || sameIssuer(hit.meta.issuer, p.issuer))) return hit.meta;
  const doc = await getJson(url, policy, "OIDC discovery document");
  for (const key of ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
    if (typeof doc[key] !== "string" || !URL.canParse(doc[key]))
      throw new OidcError(`the discovery document has no valid ${key}`);
  }
  const meta = doc as unknown as OidcMetadata;
  if (p.issuer && !sameIssuer(meta.issuer, p.issuer))
    throw new OidcError(`the discovery document names issuer ${meta.issuer}, not the configured ${p.issuer}`);
  cache.set(url, { at: Date.now(), meta });
  return meta;
}

/** Owners paste issuers with or without the trailing slash; tokens are then checked against the discovered value exactly. */
const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
