import { deref, type JsonSchema, type OpenApiDoc } from "../harness/openapi";

/**
 * Request bodies derived from the documented JSON schemas: a valid one (required fields only, or
 * one plain field when nothing is required, e.g. a PATCH), and a malformed one (every field of the
 * wrong type plus an unknown field). Operations whose bodies this cannot guess get an explicit
 * sample in test/harness/fixtures.ts; the suite's positive control tells when one is needed.
 */

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

const nonNull = (s: JsonSchema): JsonSchema => {
  if (Array.isArray(s.type)) return { ...s, type: s.type.find((t) => t !== "null") ?? "null" };
  const options = s.anyOf ?? s.oneOf;
  if (options) return options.find((o) => o.type !== "null") ?? options[0]!;
  return s;
};

function sampleString(s: JsonSchema): string {
  if (s.enum?.length) return String(s.enum[0]);
  const example = s.example ?? s.examples?.[0];
  if (s.format === "email") return `sample-${unique()}@example.com`;
  if (s.format === "date-time") return new Date().toISOString();
  if (s.format === "date") return new Date().toISOString().slice(0, 10);
  if (s.format === "uri" || s.format === "url") return `https://example.com/${unique()}`;
  if (s.format === "uuid") return crypto.randomUUID();
  if (s.pattern && typeof example === "string") return example;
  let value = `sample-${unique()}`;
  if (s.maxLength !== undefined) value = value.slice(0, s.maxLength);
  while (value.length < (s.minLength ?? 0)) value += "x";
  return value;
}

/** A value that satisfies `schema` as far as a schema alone can tell. */
export function validSample(doc: OpenApiDoc, schema: JsonSchema | undefined, depth = 0): unknown {
  // A union (oneOf/anyOf) samples its first non-null option, itself often a $ref.
  const s = deref(doc, nonNull(deref(doc, schema) ?? {})) ?? {};
  if (s.const !== undefined) return s.const;
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p) => validSample(doc, p, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      return sampleString(s);
    case "integer":
    case "number": {
      const example = s.example ?? s.examples?.[0];
      if (typeof example === "number") return example;
      return s.minimum ?? (s.maximum !== undefined ? Math.min(1, s.maximum) : 1);
    }
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => validSample(doc, s.items, depth + 1));
    case "object":
    case undefined: {
      if (!s.properties) return {};
      const required = s.required ?? [];
      const keys = required.length ? required : pickOne(doc, s.properties);
      return Object.fromEntries(keys.map((k) => [k, validSample(doc, s.properties![k], depth + 1)]));
    }
    default:
      return null;
  }
}

/** With nothing required (PATCH bodies need at least one field): `name` if any, else the first plain field. */
function pickOne(doc: OpenApiDoc, props: Record<string, JsonSchema>): string[] {
  const plain = Object.keys(props).filter(
    (k) =>
      !/Id$|Ids$/.test(k) &&
      ["string", "integer", "number", "boolean"].includes(String(nonNull(deref(doc, props[k]) ?? {}).type)),
  );
  const key = plain.includes("name") ? "name" : (plain[0] ?? Object.keys(props)[0]);
  return key ? [key] : [];
}

export const UNKNOWN_FIELD = "__notAField";

/** A value of a different JSON type than the schema asks for. */
function wrongValue(doc: OpenApiDoc, schema: JsonSchema | undefined): unknown {
  // A union (oneOf/anyOf) samples its first non-null option, itself often a $ref.
  const s = deref(doc, nonNull(deref(doc, schema) ?? {})) ?? {};
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "string") return 12345;
  if (type === "array") return "not-an-array";
  if (type === "object") return 42;
  return "not-a-number-or-boolean";
}

/** Every documented field with a wrong type, plus a field the schema does not have. */
export function malformedBody(doc: OpenApiDoc, schema: JsonSchema | undefined): Record<string, unknown> {
  // A union (oneOf/anyOf) samples its first non-null option, itself often a $ref.
  const s = deref(doc, nonNull(deref(doc, schema) ?? {})) ?? {};
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s.properties ?? {})) body[k] = wrongValue(doc, v);
  body[UNKNOWN_FIELD] = true;
  return body;
}
