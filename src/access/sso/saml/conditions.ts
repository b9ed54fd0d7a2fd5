import type { Element } from "@xmldom/xmldom";
import { childElements, fullText, NS, onlyChild, XmlRefusal } from "./xml";

export interface ConditionSettings {
  /** Expected Issuer of the Response (when present) and of the Assertion: the IdP entity id. */
  idpEntityId: string;
  /** Our entity id, required in every AudienceRestriction. `null` only for a SP without one (tests of third-party fixtures). */
  spEntityId: string | null;
  /** Our ACS URL: the Response's Destination and the bearer confirmation's Recipient. */
  acsUrl: string;
  /** The ID of the AuthnRequest we sent and stored; responses to anything else are refused. */
  expectedInResponseTo: string;
  clockSkewSeconds: number;
}

const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";

function instant(el: Element, attr: string): number | null {
  const v = el.getAttribute(attr);
  if (v === null || v === "") return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new XmlRefusal(`${el.localName}@${attr} is not a date`);
  return t;
}

function checkWindow(el: Element, now: number, skewMs: number): void {
  const notBefore = instant(el, "NotBefore");
  const notOnOrAfter = instant(el, "NotOnOrAfter");
  if (notBefore !== null && now + skewMs < notBefore)
    throw new XmlRefusal(`${el.localName} is not yet valid (NotBefore)`);
  if (notOnOrAfter !== null && now - skewMs >= notOnOrAfter)
    throw new XmlRefusal(`${el.localName} has expired (NotOnOrAfter)`);
}

/**
 * The SAML Web SSO profile checks on the verified Response and Assertion: status, issuers,
 * destination, one bearer confirmation for our ACS answering our request within its lifetime,
 * the Conditions window and audience. Returns the instant after which the assertion is dead,
 * which is how long its id must stay in the replay cache.
 */
export function checkConditions(response: Element, assertion: Element, s: ConditionSettings, now: Date): Date {
  const t = now.getTime();
  const skew = s.clockSkewSeconds * 1000;

  const status = onlyChild(response, NS.protocol, "Status");
  const code = status ? onlyChild(status, NS.protocol, "StatusCode") : null;
  if (code?.getAttribute("Value") !== SUCCESS)
    throw new XmlRefusal(`the IdP answered with status ${code?.getAttribute("Value") ?? "(none)"}`);

  const responseIssuer = onlyChild(response, NS.assertion, "Issuer");
  if (responseIssuer && fullText(responseIssuer) !== s.idpEntityId)
    throw new XmlRefusal("the Response Issuer is not the configured IdP");
  const assertionIssuer = onlyChild(assertion, NS.assertion, "Issuer");
  if (!assertionIssuer || fullText(assertionIssuer) !== s.idpEntityId)
    throw new XmlRefusal("the Assertion Issuer is not the configured IdP");

  const destination = response.getAttribute("Destination");
  if (destination !== null && destination !== s.acsUrl)
    throw new XmlRefusal("the Response Destination is not our ACS URL");
  const responseTo = response.getAttribute("InResponseTo");
  if (responseTo !== null && responseTo !== s.expectedInResponseTo)
    throw new XmlRefusal("InResponseTo does not match a request we sent");

  const subject = onlyChild(assertion, NS.assertion, "Subject");
  const bearer = subject
    ? childElements(subject, NS.assertion, "SubjectConfirmation").filter((c) => c.getAttribute("Method") === BEARER)
    : [];
  if (bearer.length !== 1) throw new XmlRefusal("the assertion must carry exactly one bearer SubjectConfirmation");
  const data = onlyChild(bearer[0]!, NS.assertion, "SubjectConfirmationData");
  if (!data) throw new XmlRefusal("the bearer SubjectConfirmation has no SubjectConfirmationData");
  if (data.getAttribute("Recipient") !== s.acsUrl)
    throw new XmlRefusal("the SubjectConfirmationData Recipient is not our ACS URL");
  const confirmationTo = data.getAttribute("InResponseTo");
  if (confirmationTo !== null && confirmationTo !== s.expectedInResponseTo)
    throw new XmlRefusal("InResponseTo does not match a request we sent");
  if (responseTo === null && confirmationTo === null)
    throw new XmlRefusal("unsolicited responses are not accepted (no InResponseTo)");
  const confirmationEnd = instant(data, "NotOnOrAfter");
  if (confirmationEnd === null) throw new XmlRefusal("the SubjectConfirmationData has no NotOnOrAfter");
  checkWindow(data, t, skew);

  const conditions = onlyChild(assertion, NS.assertion, "Conditions");
  let end = confirmationEnd;
  if (conditions) {
    checkWindow(conditions, t, skew);
    end = Math.min(end, instant(conditions, "NotOnOrAfter") ?? end);
  }
  const restrictions = conditions ? childElements(conditions, NS.assertion, "AudienceRestriction") : [];
  if (s.spEntityId !== null) {
    if (restrictions.length === 0) throw new XmlRefusal("the assertion has no AudienceRestriction");
    // Every AudienceRestriction must be satisfied (SAML core 2.5.1.4).
    for (const r of restrictions) {
      if (!childElements(r, NS.assertion, "Audience").some((a) => fullText(a) === s.spEntityId))
        throw new XmlRefusal("the assertion is meant for another audience");
    }
  }
  return new Date(end + skew);
}
