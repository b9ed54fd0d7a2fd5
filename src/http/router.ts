import { createRoute, OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { ZodError } from "zod";
import { guard } from "../access/guard";
import { acceptsIdempotencyKey, type OperationId, ROUTE_POLICY, type RouteRule } from "../access/policy";
import type { AppEnv } from "../env";
import { ApiError, ERROR_STATUS, type ErrorDetail } from "../platform/errors";
import { withCursorScope } from "../platform/pagination";
import { ErrorSchema } from "../platform/schemas";
import { bodyShape } from "./body-shape";
import { IdempotencyHeaders, idempotency } from "./idempotency";
import { outboxDrain } from "./outbox-drain";
import { type ResponseHeaders, standardHeaders } from "./response-headers";
import { SCIM_CONTENT_TYPE, ScimErrorSchema } from "./scim-errors";

/** A missing field reads "required", not zod's "expected string, received undefined". */
const issueMessage = (issue: ZodError["issues"][number]) =>
  issue.code === "invalid_type" && /received undefined$/.test(issue.message) ? "required" : issue.message;

type Issue = ZodError["issues"][number];

/**
 * A value that fails every branch of a union is reported through the one branch it was meant for:
 * `nullableRef(X)` (X or null) fails as X with X's own field paths, not as "invalid input". A
 * branch that failed only on the value's type at its root was not meant.
 */
function expandUnions(issue: Issue): Issue[] {
  if (issue.code !== "invalid_union" || !("errors" in issue)) return [issue];
  const meant = issue.errors.filter((branch) => !branch.every((b) => b.code === "invalid_type" && b.path.length === 0));
  if (meant.length !== 1) return [issue];
  return meant[0]!.flatMap((b) => expandUnions({ ...b, path: [...issue.path, ...b.path] } as Issue));
}

export function zodDetails(error: ZodError, target?: string): ErrorDetail[] {
  return error.issues.flatMap(expandUnions).map((issue) => ({
    path: [target, ...issue.path].filter((p) => p !== undefined).join(".") || "(root)",
    message: issueMessage(issue),
  }));
}

/** The one router factory: every module builds its routes on this, so validation errors share the envelope. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const details = zodDetails(
          result.error as unknown as ZodError,
          result.target === "json" ? "body" : result.target,
        );
        throw new ApiError(
          "validation_failed",
          details
            .slice(0, 20)
            .map((d) => `${d.path}: ${d.message}`)
            .join("; "),
          { details },
        );
      }
    },
  });
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Validation failed",
  401: "Missing or invalid credentials",
  403: "Not allowed (role, credential type or plan)",
  404: "Unknown resource or workspace",
  409: "Conflict with the current state (or an Idempotency-Key whose first request is still running)",
  422: "Idempotency-Key reused with a different request",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Rate limited; see Retry-After",
  500: "Unexpected error",
  502: "An upstream service (the identity provider) could not be reached or answered badly",
  503: "Temporarily unavailable (no free workspace database, or a session object still loading); retry shortly",
};

/** One example envelope per status, so the reference page shows what a client will parse. */
const ERROR_EXAMPLES: Record<number, { message: string; code: string; details?: unknown }> = {
  400: {
    message: "body.name: must not be empty",
    code: "validation_failed",
    details: [{ path: "body.name", message: "must not be empty" }],
  },
  401: {
    message: "Missing credentials: send `Authorization: ApiKey <key>` or `Authorization: Bearer <JWT>`",
    code: "unauthenticated",
  },
  403: { message: "This action needs one of the roles: owner, admin", code: "forbidden" },
  404: { message: "Not found", code: "not_found" },
  409: { message: "A category named 'Laptops' already exists", code: "conflict" },
  422: {
    message: "This Idempotency-Key was used with a different request",
    code: "idempotency_key_reused",
  },
  413: { message: "Request body exceeds 1048576 bytes", code: "payload_too_large" },
  415: { message: "Unsupported Media Type", code: "unsupported_media_type" },
  429: { message: "Too many requests", code: "rate_limited" },
  500: { message: "Internal error; quote the requestId when reporting it", code: "internal_error" },
  502: { message: "The identity provider could not be reached", code: "idp_unreachable" },
  503: { message: "No free workspace database in the pool; try again later", code: "service_unavailable" },
};

const scimErrorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status] ?? "Error",
  content: { [SCIM_CONTENT_TYPE]: { schema: ScimErrorSchema } },
});

const errorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status] ?? "Error",
  content: {
    "application/json": {
      schema: ErrorSchema,
      ...(ERROR_EXAMPLES[status]
        ? { example: { ...ERROR_EXAMPLES[status], requestId: "req_01jd3k4m5n6p7q8r9s0t1v2w3x" } }
        : {}),
    },
  },
});

/** Error responses for `createRoute`, e.g. `...errorResponses(409)`. */
export function errorResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorResponse(s)])) as Record<S, ReturnType<typeof errorResponse>>;
}

/** The API-key scopes a route needs: its own, and the custody scope where it moves assets. */
export const scopesOf = (rule: RouteRule): string[] => [rule.scope, rule.alsoScope].filter((s) => s !== undefined);

function securityFor(rule: RouteRule) {
  // OpenAPI 3.1 lets a non-OAuth requirement list role names: the API-key scope the route needs.
  if (rule.access === "data") return [{ ApiKey: scopesOf(rule) }, { Bearer: [] }];
  if (rule.access === "jwt") return [{ Bearer: [] }];
  if (rule.access === "admin") return [{ AdminCookie: [] }];
  if (rule.access === "scim") return [{ ScimToken: [] }];
  return [];
}

function ruleDescription(rule: RouteRule): string {
  const who = {
    public: "No credentials.",
    tenantPublic: "Workspace host; no credentials.",
    data: "Workspace host; `ApiKey` or `Bearer <JWT>`.",
    jwt: "Workspace host; `Bearer <JWT>` only (API keys get 403).",
    scim: "Workspace host; `Bearer <SCIM token>` only (API keys and JWTs get 401). Errors in the SCIM error shape.",
    adminPublic: "Admin host; no credentials.",
    admin: "Admin host; platform-admin cookie.",
  }[rule.access];
  const roles = rule.roles ? ` Roles: ${rule.roles.join(", ")}.` : "";
  const self =
    rule.access === "data" || rule.access === "jwt"
      ? rule.selfService
        ? " Self-service role (requester): yes, narrowed to its own."
        : " Self-service role (requester): no."
      : "";
  const plan = rule.feature ? ` Plan feature: ${rule.feature}.` : "";
  const scopes = scopesOf(rule).map((s) => `\`${s}\``);
  const scope = scopes.length > 0 ? ` API-key scope${scopes.length > 1 ? "s" : ""}: ${scopes.join(" and ")}.` : "";
  return `${who}${roles}${self}${plan}${scope}`;
}

/** Binds the cursors this request hands out and accepts to its list (src/platform/pagination.ts). */
const listScope =
  (operationId: string): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    withCursorScope({ list: `${operationId} ${new URL(c.req.url).host}${c.req.path}`, secret: c.env.JWT_SECRET }, next);

// application/json, and the SCIM routes' application/scim+json: both get the body-shape check.
const hasJsonBody = (config: DefinedRoute) =>
  Object.keys(config.request?.body?.content ?? {}).some((type) => /^application\/([\w.-]+\+)?json$/.test(type));

type DefinedRoute = Omit<RouteConfig, "security" | "middleware" | "operationId"> & { operationId: OperationId };

/**
 * `createRoute` plus the route's policy from ROUTE_POLICY: the guard middleware, the OpenAPI
 * `security`, and the standard error responses for what the guard and validator can answer.
 */
export function defineRoute<R extends DefinedRoute>(config: R): R {
  const rule: RouteRule = ROUTE_POLICY[config.operationId];
  const standard: number[] = [500];
  const idempotent = acceptsIdempotencyKey(config.method, rule);
  if (config.request || idempotent) standard.push(400);
  // @hono/zod-openapi answers a non-JSON Content-Type on a JSON body with 415 (see its media-type gate).
  // The app-wide body limit (JSON_BODY_LIMIT in src/app.ts) answers 413 before any route runs.
  if (config.request?.body) standard.push(413, 415);
  if (rule.access !== "public") standard.push(404);
  if (rule.access === "data" || rule.access === "jwt" || rule.access === "admin" || rule.access === "scim")
    standard.push(401);
  if (rule.access === "scim") standard.push(429);
  if (rule.access === "data" || rule.access === "jwt") standard.push(403, 429);
  else if (rule.throttled) standard.push(429);
  if (idempotent) standard.push(409, 422);
  // A workspace being moved between shards (docs/deploying.md#shards): a write that reaches the old
  // shard during the switch is refused with Retry-After; so is an admin's export or deletion.
  if (rule.access !== "public" && rule.access !== "adminPublic") standard.push(503);
  const description = [config.description, `**Access:** ${ruleDescription(rule)}`].filter(Boolean).join("\n\n");
  // The guard and the standard error responses are left out of the returned type on purpose:
  // handlers keep the router's AppEnv and only their own success responses to type-check against.
  const route = createRoute({
    ...config,
    ...(idempotent ? { request: { ...config.request, headers: IdempotencyHeaders } } : {}),
    description,
    security: securityFor(rule) as { [scheme: string]: string[] }[],
    // The outbox drain wraps the guard so it sees the tenant database the guard sets; the list
    // scope binds cursors before any handler runs; the idempotency store runs last, after the
    // credential and the body's shape are checked.
    middleware: [
      outboxDrain,
      listScope(config.operationId),
      guard(rule, config.operationId),
      ...(hasJsonBody(config) ? [bodyShape] : []),
      ...(idempotent ? [idempotency({ issuesSecret: rule.issuesSecret })] : []),
    ],
    responses: withHeaders(
      {
        ...(rule.access === "scim"
          ? Object.fromEntries(standard.map((s) => [s, scimErrorResponse(s)]))
          : errorResponses(...standard)),
        ...config.responses,
      },
      rule,
      idempotent,
    ),
  });
  return route as unknown as R;
}

/**
 * Adds the request id and the guard's, limiter's and idempotency store's headers to each response
 * (a route's own win), as references to the document's `components/headers`.
 */
function withHeaders(responses: RouteConfig["responses"], rule: RouteRule, idempotent: boolean) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if (!("description" in response)) return [status, response];
      const standard = standardHeaders(rule, idempotent, Number(status));
      const own = ("headers" in response ? response.headers : undefined) as ResponseHeaders | undefined;
      return [status, { ...response, headers: { ...standard, ...own } }];
    }),
  );
}

export { ERROR_STATUS };

/** `{ description, content: application/json }` for a response. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});
