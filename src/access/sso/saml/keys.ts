import { X509Certificate } from "xmldsigjs";

/** At most this many signing certificates per IdP: the current one and the next (rollover). */
export const MAX_IDP_CERTS = 2;

/**
 * The base64 DER body of a certificate given as PEM (with or without the BEGIN/END lines) or as
 * the bare base64 an IdP shows in its console or metadata. Whitespace is ignored.
 */
export function certificateBody(text: string): string {
  return text
    .replace(/-----BEGIN CERTIFICATE-----/g, "")
    .replace(/-----END CERTIFICATE-----/g, "")
    .replace(/\s+/g, "");
}

function derOf(text: string): Uint8Array {
  const body = certificateBody(text);
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new Error("not a base64 certificate");
  return Uint8Array.from(atob(body), (ch) => ch.charCodeAt(0));
}

/**
 * The RSA public key of an X.509 certificate, imported with WebCrypto. The verifier re-imports it
 * for the hash the signature names, so the hash here is only a placeholder. Certificate dates are
 * not checked: the IdP's certificate is pinned by the workspace owner, as SAML SPs commonly do.
 */
export async function publicKeyOf(certificate: string): Promise<CryptoKey> {
  const cert = new X509Certificate(derOf(certificate));
  return cert.exportKey({ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as Parameters<X509Certificate["exportKey"]>[0]);
}

/** True when `certificate` parses as an X.509 certificate holding an RSA key. */
export async function isUsableCertificate(certificate: string): Promise<boolean> {
  try {
    await publicKeyOf(certificate);
    return true;
  } catch {
    return false;
  }
}

/** xmldsigjs parses the whole certificate (pkijs) but shows no dates: its parsed form is protected. */
class DatedCertificate extends X509Certificate {
  get notAfter(): Date {
    return this.simpl.notAfter.value;
  }
}

/** The certificate's end of validity (notAfter), or null when it does not parse. */
export function certificateNotAfter(certificate: string): Date | null {
  try {
    return new DatedCertificate(derOf(certificate)).notAfter;
  } catch {
    return null;
  }
}
