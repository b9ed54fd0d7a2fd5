import type { Document, Element, Node } from "@xmldom/xmldom";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { setNodeDependencies } from "xml-core";

/**
 * The one XML parser on the SAML signature path: @xmldom/xmldom, namespace-aware. xmldsigjs
 * (through xml-core) needs a DOMParser and XMLSerializer outside browsers; Workers have neither,
 * so xmldom's are registered here, once, before any verification runs.
 */
setNodeDependencies({ DOMParser, XMLSerializer });

export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
} as const;

const ELEMENT = 1;
const PROCESSING_INSTRUCTION = 7;
const DOCUMENT_TYPE = 10;

/** Thrown by `parseStrict`; its message is the refusal reason. */
export class XmlRefusal extends Error {}

/**
 * Parses a SAML message into a DOM, refusing what has no business in one: a DOCTYPE (entity
 * expansion, external entities), processing instructions other than the XML declaration, more
 * than one root, and anything xmldom reports as an error (it would otherwise repair the input).
 */
export function parseStrict(xml: string): Document {
  // Checked on the text as well as the tree: xmldom keeps a DOCTYPE node, but a refusal that does
  // not depend on how a parser models declarations is easier to trust.
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml))
    throw new XmlRefusal("DOCTYPE or ENTITY declarations are not allowed");
  let problem: string | null = null;
  const parser = new DOMParser({
    onError: (level: string, message: string) => {
      if (level !== "warning") problem ??= message;
    },
  });
  let doc: Document;
  try {
    doc = parser.parseFromString(xml, "text/xml");
  } catch (err) {
    throw new XmlRefusal(`malformed XML: ${err instanceof Error ? err.message.split("\n")[0] : "parse error"}`);
  }
  if (problem) throw new XmlRefusal(`malformed XML: ${problem}`);
  let roots = 0;
  const top = Array.from(doc.childNodes);
  for (const [i, node] of top.entries()) {
    if (node.nodeType === DOCUMENT_TYPE) throw new XmlRefusal("DOCTYPE declarations are not allowed");
    if (node.nodeType === ELEMENT) roots++;
    if (node.nodeType === PROCESSING_INSTRUCTION && !(i === 0 && node.nodeName === "xml")) {
      throw new XmlRefusal("processing instructions are not allowed");
    }
  }
  if (roots !== 1 || !doc.documentElement) throw new XmlRefusal("the document must have exactly one root element");
  for (const node of descendants(doc.documentElement)) {
    if (node.nodeType === PROCESSING_INSTRUCTION) throw new XmlRefusal("processing instructions are not allowed");
  }
  return doc;
}

function* descendants(node: Node): Generator<Node> {
  for (const child of Array.from(node.childNodes)) {
    yield child;
    yield* descendants(child);
  }
}

/** Every element below `root` (not `root` itself), in document order. */
export function* elementsUnder(root: Element): Generator<Element> {
  for (const node of descendants(root)) if (node.nodeType === ELEMENT) yield node as Element;
}

export const isA = (el: Element, ns: string, localName: string) => el.namespaceURI === ns && el.localName === localName;

/** Direct element children of `parent`, optionally only those named `ns`:`localName`. */
export function childElements(parent: Element, ns?: string, localName?: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (n): n is Element => n.nodeType === ELEMENT && (ns === undefined || isA(n as Element, ns, localName ?? "")),
  );
}

/** The only such child, `null` when there is none; several is a refusal. */
export function onlyChild(parent: Element, ns: string, localName: string): Element | null {
  const found = childElements(parent, ns, localName);
  if (found.length > 1) throw new XmlRefusal(`more than one ${localName} in ${parent.localName}`);
  return found[0] ?? null;
}

/**
 * The element's whole text content: every text and CDATA descendant, joined; comments are not
 * text. Reading only the first text node is the CVE-2017-11428 / CVE-2025-29775 family of bugs
 * (`user@example.com<!---->.evil.com`), so every value this code trusts is read through here.
 */
export function fullText(el: Element): string {
  return (el.textContent ?? "").trim();
}

/** The ID attribute names XML Signature references can point at in SAML documents. */
export const ID_ATTRIBUTES = ["ID", "Id", "id"] as const;
