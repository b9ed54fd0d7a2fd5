import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RouteRule } from "../access/policy";
import type { AppEnv } from "../env";
import { SHARD_MOVED_HEADER } from "../tenancy/shard";
import { REPLAY_HEADER } from "./idempotency";

/**
 * The response headers the API sends, for the OpenAPI document. A header whose meaning is the same
 * on every route is declared once under `components/headers` and referenced; `defineRoute` adds
 * the request id, the guard's, the limiter's and the idempotency store's to each response. The
 * contract check of the test suite (test/harness/contract.ts) fails on any header a response sends
 * that its operation and status do not declare (transport headers aside).
 */
type HeaderObject = { description: string; required?: boolean; schema: { type: "string" | "integer" } };
type HeaderRef = { $ref: string };
export type ResponseHeaders = Record<string, HeaderObject | HeaderRef>;

const header = (description: string, type: "string" | "integer" = "string", required = false): HeaderObject => ({
  description,
  ...(required ? { required } : {}),
  schema: { type },
});

/** Declared once in the document (`#/components/headers/<name>`). */
const COMPONENTS = {
  RequestId: header(
    "This request's id (`req_` and a ULID), on every response. Error bodies repeat it as `requestId`; quote it when reporting a problem.",
    "string",
    true,
  ),
  RateLimitPolicy: header(
    'The budgets that apply (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"credential";q=600;w=60, "workspace";q=1500;w=60`. Absent when rate limiting is off (local benchmarks).',
  ),
  RateLimit: header('The budget that ran out and when it refills, e.g. `"credential";r=0;t=60`.'),
  WWWAuthenticate: header('The schemes this route accepts: `ApiKey, Bearer realm="api"`.'),
  IdempotentReplayed: header(
    "`true` when this answer is the stored first answer of an earlier request with the same `Idempotency-Key`.",
  ),
  NoSniff: header("`nosniff`: browsers must not guess another content type than the one sent."),
  ETag: header("The stored file's entity tag; send it back as `If-None-Match` to get a 304 while it is unchanged."),
  FileContentSecurityPolicy: header(
    "`default-src 'none'; sandbox`: a file opened in the browser cannot run script or load anything.",
  ),
  PageContentSecurityPolicy: header(
    "On the HTML page only: a strict policy (no foreign script, a per-page nonce, no framing).",
  ),
  PageReferrerPolicy: header("On the HTML page only: `no-referrer`."),
  PageFrameOptions: header("On the HTML page only: `DENY` (the page cannot be framed)."),
} satisfies Record<string, HeaderObject>;

type ComponentName = keyof typeof COMPONENTS;
const ref = (name: ComponentName): HeaderRef => ({ $ref: `#/components/headers/${name}` });

/** Puts every shared header under `components/headers` of the app's document. */
export function registerHeaderComponents(app: OpenAPIHono<AppEnv>): void {
  for (const [name, object] of Object.entries(COMPONENTS))
    app.openAPIRegistry.registerComponent("headers", name, object);
}

export const HEADERS = {
  requestId: ref("RequestId"),
  rateLimitPolicy: ref("RateLimitPolicy"),
  rateLimit: ref("RateLimit"),
  wwwAuthenticate: ref("WWWAuthenticate"),
  replayed: ref("IdempotentReplayed"),
  noSniff: ref("NoSniff"),
  etag: ref("ETag"),
  fileContentSecurityPolicy: ref("FileContentSecurityPolicy"),
  retryAfter: (what: string) => header(`Seconds to wait before ${what}.`, "integer", true),
  location: (what: string) => header(what, "string", true),
  contentDisposition: (what: string) => header(what, "string", true),
  cacheControl: (what: string) => header(what, "string", true),
  /** Which cookies the response sets or clears (attributes: docs/sso.md, docs/field-app.md). */
  setCookie: (what: string, required = true) => header(what, "string", required),
} as const;

/** The security headers of an HTML page a browser is shown (a sign-in refusal), not of JSON answers. */
export const PAGE_HEADERS: ResponseHeaders = {
  "Cache-Control": header("On the HTML page only: `no-store`."),
  "Content-Security-Policy": ref("PageContentSecurityPolicy"),
  "X-Content-Type-Options": HEADERS.noSniff,
  "Referrer-Policy": ref("PageReferrerPolicy"),
  "X-Frame-Options": ref("PageFrameOptions"),
};

/** The headers a route's response of `status` may carry, from its policy rule. */
export function standardHeaders(rule: RouteRule, idempotent: boolean, status: number): ResponseHeaders {
  const out: ResponseHeaders = { "X-Request-Id": HEADERS.requestId };
  const limited = rule.access === "data" || rule.access === "jwt" || rule.access === "scim";
  // Set once the credential is known, so on every later answer (success or error) of the route.
  if (limited && status !== 401) out["RateLimit-Policy"] = HEADERS.rateLimitPolicy;
  if (status === 401) out["WWW-Authenticate"] = HEADERS.wwwAuthenticate;
  if (status === 429) {
    out["Retry-After"] = HEADERS.retryAfter("trying again");
    if (limited) out.RateLimit = HEADERS.rateLimit;
  }
  if (status === 503 && rule.access !== "public" && rule.access !== "adminPublic") {
    out["Retry-After"] = {
      ...HEADERS.retryAfter("trying again (a workspace being moved, a pool with no room)"),
      required: false,
    };
    out[SHARD_MOVED_HEADER] = header(
      "Set when the workspace is being moved to another shard: the shard it is moving to (docs/deploying.md#shards).",
      "string",
      false,
    );
  }
  if (idempotent) {
    out[REPLAY_HEADER] = HEADERS.replayed;
    if (status === 409) {
      out["Retry-After"] = {
        ...HEADERS.retryAfter("retrying when the first request with this Idempotency-Key is still running"),
        required: false,
      };
    }
  }
  return out;
}
