import type { Element } from "@xmldom/xmldom";
import { type ConditionSettings, checkConditions } from "./conditions";
import { readIdentity, type SamlIdentity } from "./identity";
import { MAX_IDP_CERTS, publicKeyOf } from "./keys";
import { verifyEnvelopedSignature } from "./signature";
import { elementsUnder, ID_ATTRIBUTES, isA, NS, onlyChild, parseStrict, XmlRefusal } from "./xml";

export interface SamlVerifySettings extends Omit<ConditionSettings, "clockSkewSeconds"> {
  /** The IdP signing certificates (PEM or base64 DER), one or two. KeyInfo in messages is never used. */
  idpCertificates: string[];
  /** Accept RSA-SHA1 and SHA-1 digests. Off by default. */
  allowSha1?: boolean;
  /**
   * Refuse an Assertion that carries no signature of its own, even when the Response around it is
   * signed. Required, so that a caller states its policy: our ACS passes what its SP metadata
   * advertises (`WantAssertionsSigned`).
   */
  wantAssertionsSigned: boolean;
  /** Tolerance for clock differences with the IdP. Default 60 seconds. */
  clockSkewSeconds?: number;
}

export type SamlVerdict =
  | {
      ok: true;
      identity: SamlIdentity /** Until when the assertion id must stay in the replay cache. */;
      expiresAt: Date;
    }
  | { ok: false; reason: string };

/** The verified parts of a Response: both nodes are from the one parsed tree. */
export interface VerifiedResponse {
  response: Element;
  assertion: Element;
  assertionSigned: boolean;
  responseSigned: boolean;
}

function checkUniqueIds(root: Element): void {
  const seen = new Set<string>();
  for (const el of [root, ...elementsUnder(root)]) {
    for (const name of ID_ATTRIBUTES) {
      const v = el.getAttribute(name);
      if (v === null) continue;
      if (seen.has(v)) throw new XmlRefusal(`the ID ${v} appears more than once`);
      seen.add(v);
    }
  }
}

/**
 * Layer 1: parse, check the document's shape and verify the signatures. One root
 * `samlp:Response`; exactly one `saml:Assertion` in the whole document and it is a direct child
 * of the Response (no EncryptedAssertion); IDs unique; every `ds:Signature` a direct child of the
 * Response or the Assertion, at most one each; at least one signature, each present one valid;
 * with `wantAssertionsSigned`, the Assertion's own signature among them.
 */
export async function verifySamlSignatures(
  xml: string,
  s: Pick<SamlVerifySettings, "idpCertificates" | "allowSha1" | "wantAssertionsSigned">,
): Promise<VerifiedResponse> {
  const doc = parseStrict(xml);
  const response = doc.documentElement;
  if (!response || !isA(response, NS.protocol, "Response"))
    throw new XmlRefusal("the root element is not a samlp:Response");
  checkUniqueIds(response);
  const all = [...elementsUnder(response)];
  if (all.some((el) => isA(el, NS.assertion, "EncryptedAssertion")))
    throw new XmlRefusal("encrypted assertions are not supported");
  const assertions = all.filter((el) => isA(el, NS.assertion, "Assertion"));
  if (assertions.length !== 1) throw new XmlRefusal(`expected exactly one Assertion, found ${assertions.length}`);
  const assertion = assertions[0]!;
  if (assertion.parentNode !== response) throw new XmlRefusal("the Assertion must be a direct child of the Response");
  for (const sig of all.filter((el) => isA(el, NS.dsig, "Signature"))) {
    if (sig.parentNode !== response && sig.parentNode !== assertion)
      throw new XmlRefusal("a Signature may only be a direct child of the Response or the Assertion");
  }
  const responseSig = onlyChild(response, NS.dsig, "Signature");
  const assertionSig = onlyChild(assertion, NS.dsig, "Signature");
  if (!responseSig && !assertionSig) throw new XmlRefusal("the response is not signed");
  if (s.wantAssertionsSigned && !assertionSig) throw new XmlRefusal("the Assertion is not signed");

  const certs = s.idpCertificates.slice(0, MAX_IDP_CERTS);
  if (certs.length === 0) throw new XmlRefusal("no IdP certificate is configured");
  const keys = await Promise.all(certs.map(publicKeyOf));
  const allowSha1 = s.allowSha1 ?? false;
  if (responseSig) await verifyEnvelopedSignature(doc, responseSig, response, keys, allowSha1);
  if (assertionSig) await verifyEnvelopedSignature(doc, assertionSig, assertion, keys, allowSha1);
  return { response, assertion, responseSigned: !!responseSig, assertionSigned: !!assertionSig };
}

/**
 * Verifies a SAML Response received at our ACS (HTTP-POST binding, already base64-decoded) and
 * returns who signed in, or why not. The one entry point of SAML sign-in:
 *
 * 1. parse once with @xmldom/xmldom (namespace-aware); refuse DOCTYPE, processing instructions,
 *    several roots and anything malformed;
 * 2. shape: one Response root, exactly one Assertion (its direct child), unique IDs, signatures
 *    only as direct children of the Response or the Assertion; with `wantAssertionsSigned` the
 *    Assertion must carry its own (a signed Response alone is refused);
 * 3. signatures with xmldsigjs on WebCrypto against the configured certificates only (never
 *    KeyInfo): one SignedInfo, one Reference to the ID of the element holding the signature,
 *    enveloped-signature + exclusive c14n transforms only, allowlisted algorithms (SHA-1 only when
 *    `allowSha1`), digest and signature values read as whole text content;
 * 4. the profile rules on the same verified nodes: Success status, Issuer, Destination,
 *    Recipient, Audience, NotBefore/NotOnOrAfter with `clockSkewSeconds` (default 60), and
 *    InResponseTo equal to the request we stored;
 * 5. the identity (NameID, attributes, email) read from the verified Assertion as full text.
 *
 * The caller still owns the state: consuming the stored request and recording `assertionId` in
 * the replay cache until `expiresAt` (see docs/sso.md).
 *
 * @example
 * const verdict = await verifySamlResponse(xml, { idpEntityId, idpCertificates: [pem], spEntityId,
 *   acsUrl, expectedInResponseTo: stored.requestId, wantAssertionsSigned: true }, new Date());
 * if (!verdict.ok) refuse(verdict.reason);
 */
export async function verifySamlResponse(xml: string, settings: SamlVerifySettings, now: Date): Promise<SamlVerdict> {
  try {
    const verified = await verifySamlSignatures(xml, settings);
    const expiresAt = checkConditions(
      verified.response,
      verified.assertion,
      { ...settings, clockSkewSeconds: settings.clockSkewSeconds ?? 60 },
      now,
    );
    const identity = readIdentity(verified.assertion);
    if (!identity.assertionId) return { ok: false, reason: "the Assertion has no ID" };
    return { ok: true, identity, expiresAt };
  } catch (err) {
    if (err instanceof XmlRefusal) return { ok: false, reason: err.message };
    return { ok: false, reason: `unreadable response: ${err instanceof Error ? err.message : String(err)}` };
  }
}
