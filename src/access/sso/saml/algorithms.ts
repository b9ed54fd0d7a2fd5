/**
 * Algorithm allowlists. Anything not named here is refused, whatever xmldsigjs could compute.
 * SHA-1 (signature and digest) is accepted only when the workspace turned `allowSha1` on for an
 * old IdP; it is off by default.
 */
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

/** The only Reference transforms allowed: enveloped-signature and exclusive c14n (no comments). */
export const ALLOWED_TRANSFORMS: ReadonlySet<string> = new Set([ENVELOPED, EXC_C14N]);

const STRONG_SIGNATURES = [
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
];
const STRONG_DIGESTS = [
  "http://www.w3.org/2001/04/xmlenc#sha256",
  "http://www.w3.org/2001/04/xmldsig-more#sha384",
  "http://www.w3.org/2001/04/xmlenc#sha512",
];
const SHA1_SIGNATURE = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
const SHA1_DIGEST = "http://www.w3.org/2000/09/xmldsig#sha1";

export function signatureAllowed(uri: string, allowSha1: boolean): boolean {
  return STRONG_SIGNATURES.includes(uri) || (allowSha1 && uri === SHA1_SIGNATURE);
}

export function digestAllowed(uri: string, allowSha1: boolean): boolean {
  return STRONG_DIGESTS.includes(uri) || (allowSha1 && uri === SHA1_DIGEST);
}
