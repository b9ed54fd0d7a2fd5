import { certificateBody, isUsableCertificate, MAX_IDP_CERTS } from "../../access/sso/saml";
import { ApiError, type ErrorDetail } from "../../platform/errors";
import type { SsoConfigInput } from "./schemas";
import type { SpUrls } from "./urls";

const SAML_ONLY = ["entityId", "acsUrl", "idpMetadataUrl", "idpCertificate", "idpSsoUrl", "allowSha1"] as const;
const OIDC_ONLY = ["issuerUrl", "discoveryUrl", "clientId", "clientSecret", "redirectUri", "scopes"] as const;
const URL_FIELDS = ["acsUrl", "idpMetadataUrl", "issuerUrl", "discoveryUrl", "redirectUri", "idpSsoUrl"] as const;

const isUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
};
const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== "";

/** The PEM blocks (or one bare base64 body) in the certificate text. */
export function splitCertificates(text: string): string[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  return (blocks ?? [text]).map(certificateBody).filter(Boolean);
}

/**
 * The five rules of docs/sso.md#configuration-patch-tenantscurrentsaml-config, in their order, each a 400 naming the field; then the fixed callbacks and
 * fields of the other protocol. The first broken rule answers, so the message says what to fix.
 */
export async function validateSsoConfig(input: SsoConfigInput, urls: SpUrls): Promise<void> {
  const fail = (field: string, message: string): never => {
    const detail: ErrorDetail = { path: `body.${field}`, message };
    throw new ApiError("validation_failed", `${detail.path}: ${message}`, { details: [detail] });
  };
  // 1. provider is required
  if (!present(input.provider)) fail("provider", "required: `saml` or `oidc`");
  if (input.provider !== "saml" && input.provider !== "oidc") fail("provider", "must be `saml` or `oidc`");
  // 5 first for the fields present: a malformed URL is reported as such, not as missing.
  for (const f of URL_FIELDS) if (input[f] !== undefined && !isUrl(input[f])) fail(f, "must be a valid http(s) URL");
  if (input.provider === "saml") {
    // 2. SAML requires entityId and acsUrl
    if (!present(input.entityId)) fail("entityId", "required for SAML: the IdP's entity id");
    if (!present(input.acsUrl)) fail("acsUrl", `required for SAML: ${urls.acsUrl}`);
    // 3. at least one of idpMetadataUrl or idpCertificate
    if (!present(input.idpMetadataUrl) && !present(input.idpCertificate))
      fail("idpMetadataUrl", "SAML needs idpMetadataUrl or idpCertificate");
    if (input.acsUrl !== urls.acsUrl) fail("acsUrl", `is fixed for this workspace: ${urls.acsUrl}`);
    for (const f of OIDC_ONLY) if (input[f] !== undefined) fail(f, "is an OIDC field; provider is saml");
    if (present(input.idpCertificate)) {
      const certs = splitCertificates(input.idpCertificate);
      if (certs.length > MAX_IDP_CERTS) fail("idpCertificate", `at most ${MAX_IDP_CERTS} certificates`);
      for (const c of certs)
        if (!(await isUsableCertificate(c)))
          fail("idpCertificate", "not a readable X.509 certificate with an RSA key (PEM or base64)");
    }
  } else {
    // 4. OIDC requires clientId and clientSecret
    if (!present(input.clientId)) fail("clientId", "required for OIDC");
    if (!present(input.clientSecret)) fail("clientSecret", "required for OIDC");
    if (input.redirectUri !== undefined && input.redirectUri !== urls.oidcRedirectUri)
      fail("redirectUri", `is fixed for this workspace: ${urls.oidcRedirectUri}`);
    for (const f of SAML_ONLY) if (input[f] !== undefined) fail(f, "is a SAML field; provider is oidc");
  }
}
