import { XMLParser } from "fast-xml-parser";
import type { IdpMetadataCache } from "../../db/control/sso";
import { guardedFetch, type OutboundPolicy } from "../../platform/outbound";
import { certificateBody, isUsableCertificate, MAX_IDP_CERTS } from "./saml/keys";

/** Metadata documents are small; a larger answer is not one. */
export const METADATA_MAX_BYTES = 512 * 1024;
export const METADATA_TIMEOUT_MS = 10_000;

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/** Why a metadata document cannot be used; becomes a 400 naming `idpMetadataUrl`. */
export class MetadataError extends Error {}

type Node = Record<string, unknown>;
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null;
const textOf = (v: unknown): string =>
  typeof v === "string" ? v : isNode(v) && typeof v["#text"] === "string" ? v["#text"] : "";

/**
 * Reads an IdP's SAML metadata (fast-xml-parser: this document is configuration, not a signed
 * message, so it never touches the signature path): the entity id, the HTTP-Redirect sign-in URL
 * and the signing certificates (KeyDescriptor use="signing" or without a use), at most two so a
 * rollover can be announced in advance.
 */
export async function parseIdpMetadata(xml: string): Promise<Omit<IdpMetadataCache, "fetchedAt">> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new MetadataError("the metadata document has a DOCTYPE, which is not allowed");
  let doc: Node;
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      removeNSPrefix: true,
      processEntities: false,
      parseTagValue: false,
      trimValues: true,
    });
    doc = parser.parse(xml, true) as Node;
  } catch (err) {
    throw new MetadataError(
      `the metadata is not well-formed XML (${err instanceof Error ? err.message.split("\n")[0] : "parse error"})`,
    );
  }
  const entities = isNode(doc.EntitiesDescriptor)
    ? asArray(doc.EntitiesDescriptor.EntityDescriptor)
    : asArray(doc.EntityDescriptor);
  const idps = entities.filter(isNode).filter((e) => isNode(e.IDPSSODescriptor) || Array.isArray(e.IDPSSODescriptor));
  if (idps.length !== 1)
    throw new MetadataError(
      idps.length
        ? "the metadata describes more than one identity provider"
        : "the document is not SAML IdP metadata (no IDPSSODescriptor)",
    );
  const entity = idps[0]!;
  const descriptor = asArray(entity.IDPSSODescriptor as Node | Node[])[0]!;

  const services = asArray(descriptor.SingleSignOnService as Node | Node[]).filter(isNode);
  const redirect = services.find((s) => s["@_Binding"] === REDIRECT);
  const ssoUrl = typeof redirect?.["@_Location"] === "string" ? redirect["@_Location"] : null;
  if (!ssoUrl) throw new MetadataError("the metadata has no SingleSignOnService with the HTTP-Redirect binding");
  try {
    new URL(ssoUrl);
  } catch {
    throw new MetadataError("the metadata's SingleSignOnService Location is not a URL");
  }

  const certificates: string[] = [];
  for (const kd of asArray(descriptor.KeyDescriptor as Node | Node[]).filter(isNode)) {
    if (kd["@_use"] !== undefined && kd["@_use"] !== "signing") continue;
    const keyInfo = isNode(kd.KeyInfo) ? kd.KeyInfo : {};
    for (const data of asArray(keyInfo.X509Data as Node | Node[]).filter(isNode)) {
      for (const c of asArray(data.X509Certificate)) {
        const body = certificateBody(textOf(c));
        if (body && !certificates.includes(body)) certificates.push(body);
      }
    }
  }
  if (certificates.length === 0) throw new MetadataError("the metadata has no signing certificate");
  if (certificates.length > MAX_IDP_CERTS)
    throw new MetadataError(
      `the metadata lists ${certificates.length} signing certificates; at most ${MAX_IDP_CERTS} are accepted`,
    );
  for (const c of certificates) {
    if (!(await isUsableCertificate(c)))
      throw new MetadataError("a signing certificate in the metadata is not a readable X.509 RSA certificate");
  }
  const entityId = typeof entity["@_entityID"] === "string" ? entity["@_entityID"] : null;
  return { entityId, ssoUrl, certificates };
}

/** Fetches and parses the metadata through the outbound guard (address rules, timeout, size, no redirects). */
export async function fetchIdpMetadata(url: string, policy: OutboundPolicy, now: string): Promise<IdpMetadataCache> {
  const res = await guardedFetch(url, {
    policy,
    method: "GET",
    timeoutMs: METADATA_TIMEOUT_MS,
    maxBodyBytes: METADATA_MAX_BYTES + 1,
    headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
  });
  if (res.error) throw new MetadataError(`could not fetch the metadata: ${res.error}`);
  if (res.status !== 200)
    throw new MetadataError(
      `fetching the metadata answered HTTP ${res.status}${res.status && res.status >= 300 && res.status < 400 ? " (redirects are not followed; use the final URL)" : ""}`,
    );
  if (new TextEncoder().encode(res.body).byteLength > METADATA_MAX_BYTES)
    throw new MetadataError(`the metadata is larger than ${METADATA_MAX_BYTES} bytes`);
  return { ...(await parseIdpMetadata(res.body)), fetchedAt: now };
}
