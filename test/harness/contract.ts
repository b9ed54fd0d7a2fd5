import { exports } from "cloudflare:workers";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Bindings } from "../../src/env";
import worker from "../../src/index";
import type { OpenApiDoc, Operation } from "./openapi";

/**
 * The contract check of the whole integration suite: every answer the tests receive from the Worker
 * is checked against the OpenAPI document the Worker serves (Ajv, JSON Schema 2020-12 with formats,
 * the dialect of OpenAPI 3.1). An undocumented status, media type or response header, or a JSON
 * body that leaves its schema, fails the test that received it, so drift cannot land. Every header
 * received is compared with the document too: one its response does not declare fails (transport
 * and CORS headers aside, listed with their reasons in UNDECLARED_HEADERS).
 *
 * It reads the document, not a list of routes: a route added anywhere is checked as soon as it is
 * documented. Paths the document does not describe are the API's own pages (the document itself,
 * the reference page) or unknown routes (404), and are left alone; any other answer of an
 * undocumented `/api/v1` path fails.
 */

const DOC_URL = "https://docs.inventory.test/api/v1/openapi.json";
/** Served on purpose outside the document: the document itself and the reference page. */
const UNDOCUMENTED = new Set(["/api/v1/openapi.json", "/api/v1/docs", "/api/v1/docs/scalar.js"]);
/**
 * Every header a response sends must be declared on its operation's response for that status,
 * except these, each for the reason given.
 */
const UNDECLARED_HEADERS: Record<string, string> = {
  "content-type": "the media type is the response's `content` key, checked below",
  "content-length": "message framing",
  "transfer-encoding": "message framing",
  date: "set by the transport",
  vary: "CORS: `Vary: Origin` on every answer to a request with an Origin (the workspace's CORS middleware, docs/settings.md); not per operation",
  "access-control-allow-origin": "CORS, as `vary`",
  "access-control-expose-headers": "CORS, as `vary`",
  "access-control-allow-methods": "CORS preflight, as `vary`",
  "access-control-allow-headers": "CORS preflight, as `vary`",
  "access-control-max-age": "CORS preflight, as `vary`",
  "x-d1-queries": "local benchmark instrumentation, sent only with ENVIRONMENT=development (docs/health.md)",
  "x-d1-round-trips": "as x-d1-queries",
  "x-d1-rows-read": "as x-d1-queries",
};
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  /** Literal segments count: `/items/bulk` wins over `/items/{id}` as in the router. */
  literals: number;
  op: Operation & { responses?: Record<string, ResponseObject> };
}
interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, unknown>;
}
interface Contract {
  routes: Route[];
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

let loaded: Promise<Contract> | undefined;

async function load(): Promise<Contract> {
  const res = await exports.default.fetch(new Request(DOC_URL));
  if (res.status !== 200) throw new Error(`contract: the document answered ${res.status}`);
  const doc = await res.json<OpenApiDoc>();
  // strict: false lets OpenAPI's own keywords (example, discriminator, x-*) through unvalidated.
  // inlineRefs: false compiles each referenced component once, shared by every response that uses
  // it; inlined, each response's validator compiled its own copy (about half of this check's CPU).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, inlineRefs: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, "doc");
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+");
      routes.push({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${source}/?$`),
        literals: path.split("/").filter((s) => s && !s.startsWith("{")).length,
        op: op as Route["op"],
      });
    }
  }
  routes.sort((a, b) => b.literals - a.literals);
  return { routes, ajv, validators: new Map() };
}

const pointer = (...parts: string[]) =>
  `doc#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

/** The document's response object for this status: exact, then `4XX`-style ranges, then `default`. */
function responseFor(op: Route["op"], status: number): [string, ResponseObject] | undefined {
  const responses = op.responses ?? {};
  for (const key of [String(status), `${String(status)[0]}XX`, "default"]) {
    const r = responses[key];
    if (r) return [key, r];
  }
  return undefined;
}

/** Media types match exactly, or through a declared `type/*` or `*\/*`. */
function declaredMedia(content: Record<string, unknown>, media: string): string | undefined {
  if (content[media]) return media;
  const [type] = media.split("/");
  return [`${type}/*`, "*/*"].find((m) => content[m]);
}

/** Checks one answer of the Worker against the served document; throws what leaves it. */
export async function checkContract(req: Request, res: Response): Promise<void> {
  if (res.status === 101 || (res as { webSocket?: unknown }).webSocket) return;
  const url = new URL(req.url);
  loaded ??= load();
  const contract = await loaded;
  const route = contract.routes.find((r) => r.method === req.method && r.pattern.test(url.pathname));
  const where = `${req.method} ${url.pathname} answered ${res.status}`;
  if (!route) {
    if (!url.pathname.startsWith("/api/v1/") || UNDOCUMENTED.has(url.pathname)) return;
    // A CORS preflight is the browser's question about a documented operation, answered for all.
    if (req.method === "OPTIONS" && req.headers.has("access-control-request-method")) return;
    if (res.status === 404 || res.status === 405) return;
    throw new Error(`contract: ${where}, but the document has no such operation`);
  }
  const found = responseFor(route.op, res.status);
  if (!found) throw new Error(`contract: ${where}, a status ${route.op.operationId} does not document`);
  const [statusKey, response] = found;
  const declared = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
  for (const [header] of res.headers) {
    if (header in UNDECLARED_HEADERS || declared.has(header)) continue;
    throw new Error(
      `contract: ${where} with a \`${header}\` header that ${route.op.operationId}'s ${statusKey} response does not declare`,
    );
  }
  const media = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const json = /[/+]json$/.test(media);
  // Bytes, not text, for a PDF or an image (workerd warns when a binary body is read as text).
  const body = json ? await res.clone().text() : await res.clone().arrayBuffer();
  if (typeof body === "string" ? !body : body.byteLength === 0) return;
  const content = response.content ?? {};
  const mediaKey = declaredMedia(content, media);
  if (!mediaKey) {
    throw new Error(`contract: ${where} as \`${media}\`; documented: ${Object.keys(content).join(", ") || "no body"}`);
  }
  if (typeof body !== "string" || !content[mediaKey]?.schema) return;
  const ref = pointer(
    "paths",
    route.path,
    route.method.toLowerCase(),
    "responses",
    statusKey,
    "content",
    mediaKey,
    "schema",
  );
  let validate = contract.validators.get(ref);
  if (!validate) {
    validate = contract.ajv.compile({ $ref: ref });
    contract.validators.set(ref, validate);
  }
  const value: unknown = JSON.parse(body);
  if (!validate(value)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || "(root)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`)
      .join("; ");
    throw new Error(
      `contract: ${where} (${route.op.operationId}); the body leaves its schema: ${errors}\n${body.slice(0, 600)}`,
    );
  }
}

/** `exports.default.fetch` with the contract check: what every harness helper sends through. */
export async function workerFetch(req: Request): Promise<Response> {
  const res = await exports.default.fetch(req);
  await checkContract(req, res);
  return res;
}

/** The Worker's fetch handler with chosen bindings and context (tests of outages), checked the same way. */
export async function fetchWith(req: Request, bindings: Bindings, ctx: ExecutionContext): Promise<Response> {
  const res = await worker.fetch(req, bindings, ctx);
  await checkContract(req, res);
  return res;
}
