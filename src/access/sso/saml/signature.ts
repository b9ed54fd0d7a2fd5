import type { Document, Element } from "@xmldom/xmldom";
import { SignedXml } from "xmldsigjs";
import { ALLOWED_TRANSFORMS, digestAllowed, ENVELOPED, EXC_C14N, signatureAllowed } from "./algorithms";
import { childElements, isA, NS, onlyChild, XmlRefusal } from "./xml";

const EXC_C14N_NS = "http://www.w3.org/2001/10/xml-exc-c14n#";

function exactlyOne(parent: Element, localName: string): Element {
  const el = onlyChild(parent, NS.dsig, localName);
  if (!el) throw new XmlRefusal(`Signature has no ${localName}`);
  return el;
}

/** Child elements allowed under a c14n algorithm element: only exc-c14n's InclusiveNamespaces. */
function onlyInclusiveNamespaces(el: Element): void {
  for (const child of childElements(el)) {
    if (!isA(child, EXC_C14N_NS, "InclusiveNamespaces"))
      throw new XmlRefusal(`unexpected ${child.localName} in ${el.localName}`);
  }
}

/**
 * The shape rules of an enveloped SAML signature, checked on our DOM before any cryptography:
 * one SignedInfo with exclusive c14n, an allowlisted SignatureMethod and exactly one Reference
 * whose URI is `#<ID of the element that holds the signature>`; only enveloped-signature and
 * exclusive-c14n transforms; an allowlisted DigestMethod; no ds:Object (nothing else may be signed).
 */
function checkShape(sig: Element, target: Element, allowSha1: boolean): void {
  const allowed = new Set(["SignedInfo", "SignatureValue", "KeyInfo"]);
  for (const child of childElements(sig)) {
    if (child.namespaceURI !== NS.dsig || !allowed.has(child.localName ?? ""))
      throw new XmlRefusal(`unexpected ${child.localName} in Signature`);
  }
  exactlyOne(sig, "SignatureValue");
  const signedInfo = exactlyOne(sig, "SignedInfo");
  for (const child of childElements(signedInfo)) {
    if (
      child.namespaceURI !== NS.dsig ||
      !["CanonicalizationMethod", "SignatureMethod", "Reference"].includes(child.localName ?? "")
    ) {
      throw new XmlRefusal(`unexpected ${child.localName} in SignedInfo`);
    }
  }
  const c14n = exactlyOne(signedInfo, "CanonicalizationMethod");
  if (c14n.getAttribute("Algorithm") !== EXC_C14N)
    throw new XmlRefusal(`canonicalization ${c14n.getAttribute("Algorithm")} is not allowed`);
  onlyInclusiveNamespaces(c14n);
  const method = exactlyOne(signedInfo, "SignatureMethod").getAttribute("Algorithm") ?? "";
  if (!signatureAllowed(method, allowSha1)) throw new XmlRefusal(`signature algorithm ${method} is not allowed`);
  const ref = exactlyOne(signedInfo, "Reference");
  const id = target.getAttribute("ID");
  if (!id || ref.getAttribute("URI") !== `#${id}`)
    throw new XmlRefusal(`the signature's Reference must point at the ${target.localName} that holds it`);

  const transforms = onlyChild(ref, NS.dsig, "Transforms");
  const list = transforms ? childElements(transforms) : [];
  if (transforms && list.some((t) => !isA(t, NS.dsig, "Transform")))
    throw new XmlRefusal("unexpected element in Transforms");
  for (const t of list) {
    const alg = t.getAttribute("Algorithm") ?? "";
    if (!ALLOWED_TRANSFORMS.has(alg)) throw new XmlRefusal(`transform ${alg} is not allowed`);
    if (alg === ENVELOPED && childElements(t).length > 0)
      throw new XmlRefusal("unexpected content in the enveloped-signature transform");
    onlyInclusiveNamespaces(t);
  }
  if (!list.some((t) => t.getAttribute("Algorithm") === ENVELOPED))
    throw new XmlRefusal("the signature must be an enveloped signature");
  for (const child of childElements(ref)) {
    if (
      child.namespaceURI !== NS.dsig ||
      !["Transforms", "DigestMethod", "DigestValue"].includes(child.localName ?? "")
    ) {
      throw new XmlRefusal(`unexpected ${child.localName} in Reference`);
    }
  }
  const digest = exactlyOne(ref, "DigestMethod").getAttribute("Algorithm") ?? "";
  if (!digestAllowed(digest, allowSha1)) throw new XmlRefusal(`digest algorithm ${digest} is not allowed`);
  exactlyOne(ref, "DigestValue");
}

/**
 * Verifies the enveloped signature `sig` (a direct child of `target`) against the configured IdP
 * keys only. KeyInfo is dropped from the copy xmldsigjs reads: a key or certificate sent with the
 * message proves nothing (CVE-2024-32962 class) and some IdPs send malformed ones. xmldsigjs reads
 * DigestValue and SignatureValue as the elements' whole text content, so a comment cannot stand in
 * for them (CVE-2025-29775). Throws XmlRefusal with the reason when anything is wrong.
 */
export async function verifyEnvelopedSignature(
  doc: Document,
  sig: Element,
  target: Element,
  keys: CryptoKey[],
  allowSha1: boolean,
): Promise<void> {
  checkShape(sig, target, allowSha1);
  const copy = sig.cloneNode(true) as Element;
  for (const keyInfo of childElements(copy, NS.dsig, "KeyInfo")) copy.removeChild(keyInfo);

  for (const key of keys) {
    const signed = new SignedXml(doc as never);
    // Namespaces in scope at the signature (declared on the Response, say) come from its parent.
    // xmldom nodes stand in for the DOM types xmldsigjs is declared with (Workers have no DOM).
    signed.Parent = target as never;
    signed.LoadXml(copy as never);
    try {
      // The whole document is the content: xmldsigjs finds the referenced ID in it and refuses
      // duplicates; the reference was already pinned to `target` above.
      if (await signed.Verify({ key, content: doc.documentElement as never })) return;
    } catch (err) {
      // xml-core's XmlError is not an Error subclass; it still carries a message.
      const message = typeof err === "object" && err !== null && "message" in err ? String(err.message) : String(err);
      if (/digest/i.test(message))
        throw new XmlRefusal(`the ${target.localName} was changed after it was signed (digest mismatch)`);
      throw new XmlRefusal(`signature check failed: ${message}`);
    }
  }
  throw new XmlRefusal(`the ${target.localName} signature does not verify with the configured IdP certificate`);
}
