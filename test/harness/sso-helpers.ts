import { TEST_DOMAIN, type TestTenant } from "./tenant";

/** The fixed SP URLs of a test workspace (what spUrls() computes for its host). */
export function spOf(t: TestTenant) {
  const origin = `https://${t.slug}.${TEST_DOMAIN}`;
  return {
    origin,
    acsUrl: `${origin}/api/v1/auth/saml/callback`,
    spEntityId: `${origin}/api/v1/auth/saml/metadata`,
    redirectUri: `${origin}/api/v1/auth/oidc/callback`,
  };
}

/** A minimal SAML IdP metadata document. */
export function idpMetadata(opts: { entityId: string; ssoUrl: string; certs: string[] }): string {
  const keys = opts.certs
    .map(
      (c) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${c.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join("");
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${opts.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${opts.ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${opts.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}
