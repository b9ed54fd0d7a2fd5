import { call, TEST_DOMAIN } from "./tenant";

/** The subset of OpenAPI 3.1 the suites read. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
  "x-enumDescriptions"?: Record<string, string>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  const?: unknown;
};

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> };
}

export interface WalkedOperation {
  method: string;
  /** OpenAPI path, e.g. `/api/v1/categories/{categoryId}`. */
  path: string;
  operationId: string;
  op: Operation;
  pathParams: string[];
  queryParams: Parameter[];
  /** The JSON request body schema with `$ref`s resolved at the top level, if any. */
  body?: JsonSchema;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The document as a client gets it (any host serves it; it is public). */
export async function fetchOpenApi(): Promise<OpenApiDoc> {
  const res = await call<OpenApiDoc>(`https://docs.${TEST_DOMAIN}/api/v1/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Follows local `$ref`s (`#/components/schemas/X`) until a concrete schema. */
export function deref(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++) {
    const name = s.$ref.replace("#/components/schemas/", "");
    s = doc.components.schemas?.[name];
  }
  return s;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDoc): WalkedOperation[] {
  const out: WalkedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      const json = op.requestBody?.content?.["application/json"]?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        op,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        queryParams: params.filter((p) => p.in === "query"),
        body: json ? deref(doc, json) : undefined,
      });
    }
  }
  return out;
}

/** `/a/{id}` -> `/a/:id`, the form Hono's `app.routes` uses. */
export const toHonoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/** Fills `{param}` placeholders. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `missing-${name}`));
}
