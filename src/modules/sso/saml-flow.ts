import type { SsoConfigRow } from "../../access/sso/gate";
import { verifySamlResponse } from "../../access/sso/saml";
import type { SamlSettings } from "../../db/control/sso";
import type { TenantDb } from "../../env";
import { ApiError } from "../../platform/errors";
import { samlCertificates, samlSsoUrl } from "./config";
import { consumeRequest, createSsoRequest, findOpenRequest } from "./requests";
import type { SpUrls } from "./urls";
import { escapeXml } from "./xml-text";

type SamlRow = SsoConfigRow & { settings: SamlSettings };
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
/**
 * Our SP metadata promises IdPs that we want signed assertions, and the ACS holds them to it: a
 * Response signed only around an unsigned Assertion is refused. One value for both, so they
 * cannot disagree.
 */
const WANT_ASSERTIONS_SIGNED = true;

/** Raw DEFLATE then base64: the HTTP-Redirect binding's encoding of SAMLRequest. */
async function deflateBase64(xml: string): Promise<string> {
  const stream = new Blob([xml]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** An AuthnRequest ID: must start with a letter or underscore (xs:ID). */
const requestId = () =>
  `_${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/**
 * SP-initiated sign-in: stores a single-use request (its ID is what InResponseTo must echo) and
 * returns the IdP URL carrying the AuthnRequest (HTTP-Redirect binding) and our RelayState.
 */
export async function startSamlLogin(
  db: TenantDb,
  row: SamlRow,
  urls: SpUrls,
  now: Date,
): Promise<{ url: string; state: string }> {
  const ssoUrl = samlSsoUrl(row);
  if (!ssoUrl)
    throw new ApiError(
      "validation_failed",
      "SAML is configured without an IdP sign-in URL: set idpMetadataUrl (or idpSsoUrl) in the SSO configuration.",
    );
  const id = requestId();
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escapeXml(ssoUrl)}"` +
    ` AssertionConsumerServiceURL="${escapeXml(urls.acsUrl)}" ProtocolBinding="${POST_BINDING}">` +
    `<saml:Issuer>${escapeXml(urls.spEntityId)}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="${EMAIL_FORMAT}" AllowCreate="true"/></samlp:AuthnRequest>`;
  const relayState = await createSsoRequest(db, "saml", id, null, now);
  const target = new URL(ssoUrl);
  target.searchParams.set("SAMLRequest", await deflateBase64(xml));
  target.searchParams.set("RelayState", relayState);
  return { url: target.toString(), state: relayState };
}

function decodeResponse(b64: string): string {
  try {
    const bin = atob(b64.replace(/\s+/g, ""));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(bin, (ch) => ch.charCodeAt(0)),
    );
  } catch {
    throw new ApiError("validation_failed", "SAMLResponse is not base64-encoded UTF-8 XML");
  }
}

/**
 * The ACS: the request named by RelayState (this workspace's, open, single use) fixes what
 * InResponseTo must be; the Response is verified by `verifySamlResponse`; then the request is
 * consumed and the assertion id enters the replay cache in one batch. Returns the verified email.
 */
export async function finishSamlLogin(
  db: TenantDb,
  row: SamlRow,
  urls: SpUrls,
  form: { SAMLResponse?: string; RelayState?: string },
  now: Date,
) {
  if (!form.SAMLResponse) throw new ApiError("validation_failed", "The IdP posted no SAMLResponse.");
  const request = await findOpenRequest(db, form.RelayState, ["saml"], now);
  const verdict = await verifySamlResponse(
    decodeResponse(form.SAMLResponse),
    {
      idpEntityId: row.settings.entityId,
      idpCertificates: samlCertificates(row),
      spEntityId: urls.spEntityId,
      acsUrl: urls.acsUrl,
      expectedInResponseTo: request.requestId,
      allowSha1: row.settings.allowSha1,
      wantAssertionsSigned: WANT_ASSERTIONS_SIGNED,
    },
    now,
  );
  if (!verdict.ok)
    throw new ApiError("unauthenticated", `The identity provider's response was refused: ${verdict.reason}.`);
  await consumeRequest(db, request, now, { assertionId: verdict.identity.assertionId, expiresAt: verdict.expiresAt });
  if (!verdict.identity.email)
    throw new ApiError(
      "forbidden",
      "The identity provider sent no email address (NameID or an email attribute); the workspace matches users by email.",
    );
  const attrs = verdict.identity.attributes;
  const name =
    attrs.displayName?.[0] ??
    attrs.name?.[0] ??
    attrs["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"]?.[0] ??
    null;
  return { email: verdict.identity.email, name };
}

/** Our SP metadata, for the IdP admin. */
export function spMetadataXml(urls: SpUrls): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(urls.spEntityId)}">
  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="${WANT_ASSERTIONS_SIGNED}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>
    <md:AssertionConsumerService Binding="${POST_BINDING}" Location="${escapeXml(urls.acsUrl)}" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`;
}
