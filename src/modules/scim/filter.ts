import { type Filter, parse, Tester } from "scim2-parse-filter";
import { scimError } from "../../http/scim-errors";
import type { Json } from "./resource";

type Value = string | number | boolean | null;
const fold = <T>(v: T): T => (typeof v === "string" ? (v.toLowerCase() as T) : v);

/**
 * The library's matcher with string comparisons folded to lower case: the attributes providers
 * filter on (userName, emails.value, displayName, externalId as Entra and Okta send it) compare
 * case-insensitively in practice, and RFC 7643 makes userName and emails caseExact false.
 */
class FoldingTester extends Tester {
  override eq(r: unknown, v: Value) {
    return fold(r) === fold(v);
  }
  override ne(r: unknown, v: Value) {
    return fold(r) !== fold(v);
  }
  override co(r: unknown, v: Value) {
    return super.co(fold(r), fold(v));
  }
  override sw(r: unknown, v: Value) {
    return super.sw(fold(r), fold(v));
  }
  override ew(r: unknown, v: Value) {
    return super.ew(fold(r), fold(v));
  }
}

const tester = new FoldingTester();

/** Parses `filter`; a malformed one is a 400 with scimType invalidFilter. */
export function parseFilter(text: string | undefined): Filter | null {
  if (!text?.trim()) return null;
  try {
    return parse(text);
  } catch (err) {
    throw scimError("validation_failed", "invalidFilter", `Invalid filter: ${(err as Error).message || text}`);
  }
}

export const matches = (filter: Filter | null, resource: Json) => filter === null || tester.test(resource, filter);

/**
 * An equality on an indexed column (`userName eq "…"`, `externalId eq "…"`, `id eq "…"`,
 * `displayName eq "…"` for groups): the probes providers send before a create, answered by one
 * indexed read instead of a scan.
 */
export function indexedEquality(
  filter: Filter | null,
  attrs: readonly string[],
): { attr: string; value: string } | null {
  if (filter?.op !== "eq" || !("attrPath" in filter)) return null;
  const attr = attrs.find((a) => a.toLowerCase() === filter.attrPath.toLowerCase());
  const value = "compValue" in filter ? filter.compValue : null;
  return attr && typeof value === "string" ? { attr, value } : null;
}

/**
 * RFC 7644 section 3.4.2.5: `attributes` lists what to return (plus id and schemas, always),
 * `excludedAttributes` what to leave out. Sub-attributes (`name.givenName`) and extension URNs work.
 */
export function project(resource: Json, attributes?: string, excluded?: string): Json {
  const list = (s?: string) =>
    (s ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean);
  const wanted = list(attributes);
  const dropped = list(excluded);
  if (wanted.length > 0) {
    const out: Json = { schemas: resource.schemas, id: resource.id };
    for (const path of wanted) copyPath(resource, out, splitPath(path));
    return out;
  }
  if (dropped.length === 0) return resource;
  const out = structuredClone(resource);
  for (const path of dropped) {
    const parts = splitPath(path);
    if (parts[0] === "id" || parts[0] === "schemas") continue; // always returned
    dropPath(out, parts);
  }
  return out;
}

function splitPath(path: string): string[] {
  const urn = path.match(/^(urn:.+):([^:]+)$/);
  if (urn) return [urn[1]!, ...urn[2]!.split(".")];
  if (path.startsWith("urn:")) return [path];
  return path.split(".");
}

const keyOf = (obj: Json, name: string) => Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());

function copyPath(from: Json, to: Json, parts: string[]): void {
  const key = keyOf(from, parts[0]!);
  if (key === undefined) return;
  const value = from[key];
  if (parts.length === 1 || typeof value !== "object" || value === null) {
    to[key] = value;
    return;
  }
  if (Array.isArray(value)) {
    to[key] = value.map((item) => {
      const o: Json = {};
      if (typeof item === "object" && item !== null) copyPath(item as Json, o, parts.slice(1));
      return o;
    });
    return;
  }
  const sub = (to[key] as Json | undefined) ?? {};
  copyPath(value as Json, sub, parts.slice(1));
  to[key] = sub;
}

function dropPath(obj: Json, parts: string[]): void {
  const key = keyOf(obj, parts[0]!);
  if (key === undefined) return;
  if (parts.length === 1) {
    delete obj[key];
    return;
  }
  const value = obj[key];
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) if (typeof item === "object" && item !== null) dropPath(item as Json, parts.slice(1));
}
