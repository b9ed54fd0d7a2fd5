import type { Element } from "@xmldom/xmldom";
import { childElements, fullText, NS, onlyChild, XmlRefusal } from "./xml";

/** What a verified assertion says about the user. Every value is read from the verified node. */
export interface SamlIdentity {
  nameId: string;
  nameIdFormat: string | null;
  /** The email from a well-known attribute, else an email-shaped NameID; null when neither. */
  email: string | null;
  attributes: Record<string, string[]>;
  assertionId: string;
  issuer: string;
  sessionIndex: string | null;
}

const EMAIL_ATTRIBUTES = [
  "email",
  "mail",
  "emailaddress",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
];
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function attributesOf(assertion: Element): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const statement of childElements(assertion, NS.assertion, "AttributeStatement")) {
    for (const attr of childElements(statement, NS.assertion, "Attribute")) {
      const name = attr.getAttribute("Name");
      if (!name) continue;
      const values = childElements(attr, NS.assertion, "AttributeValue").map(fullText);
      out[name] = [...(out[name] ?? []), ...values];
    }
  }
  return out;
}

/**
 * Reads the identity from the assertion that was verified (the same DOM node, never a re-parse),
 * each value as the element's full text content so comments or CDATA cannot split it.
 */
export function readIdentity(assertion: Element): SamlIdentity {
  const subject = onlyChild(assertion, NS.assertion, "Subject");
  const nameIdEl = subject ? onlyChild(subject, NS.assertion, "NameID") : null;
  if (!nameIdEl) throw new XmlRefusal("the assertion has no Subject NameID");
  const nameId = fullText(nameIdEl);
  if (!nameId) throw new XmlRefusal("the assertion's NameID is empty");
  const issuerEl = onlyChild(assertion, NS.assertion, "Issuer");
  const attributes = attributesOf(assertion);
  const lowered = Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k.toLowerCase(), v]));
  const fromAttribute = EMAIL_ATTRIBUTES.map((n) => lowered[n]?.[0]).find((v) => v && EMAIL_SHAPE.test(v));
  const authn = childElements(assertion, NS.assertion, "AuthnStatement")[0];
  return {
    nameId,
    nameIdFormat: nameIdEl.getAttribute("Format"),
    email: fromAttribute ?? (EMAIL_SHAPE.test(nameId) ? nameId : null),
    attributes,
    assertionId: assertion.getAttribute("ID") ?? "",
    issuer: issuerEl ? fullText(issuerEl) : "",
    sessionIndex: authn?.getAttribute("SessionIndex") ?? null,
  };
}
