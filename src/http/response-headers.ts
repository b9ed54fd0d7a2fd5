import type { RouteRule } from "../auth/policy";
import { REPLAY_HEADER } from "./idempotency";

/**
 * The response headers the guard, the rate limiter and the idempotency store add, declared on each
 * route's responses so the document names every header a client may act on. The contract check
 * of the test suite (test/harness/contract.ts) fails on a meaningful header a response sends but
 * does not declare.
 */
type HeaderObject = { description: string; required?: boolean; schema: { type: "string" | "integer" } };
export type ResponseHeaders = Record<string, HeaderObject>;

const header = (description: string, type: "string" | "integer" = "string", required = false): HeaderObject => ({
  description,
  ...(required ? { required } : {}),
  schema: { type },
});

export const HEADERS = {
  rateLimitPolicy: header(
    'The budgets that apply (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"credential";q=600;w=60, "workspace";q=1500;w=60`. Absent when rate limiting is off (local benchmarks).',
  ),
  rateLimit: header('The budget that ran out and when it refills, e.g. `"credential";r=0;t=60`.'),
  retryAfter: (what: string) => header(`Seconds to wait before ${what}.`, "integer", true),
  wwwAuthenticate: header('The schemes this route accepts: `ApiKey, Bearer realm="api"`.'),
  replayed: header(
    "`true` when this answer is the stored first answer of an earlier request with the same `Idempotency-Key`.",
  ),
  location: (what: string) => header(what, "string", true),
  contentDisposition: (what: string) => header(what, "string", true),
} as const;

/** The headers a route's response of `status` may carry, from its policy rule. */
export function standardHeaders(rule: RouteRule, idempotent: boolean, status: number): ResponseHeaders | undefined {
  const out: ResponseHeaders = {};
  const limited = rule.access === "data" || rule.access === "jwt";
  // Set once the credential is known, so on every later answer (success or error) of the route.
  if (limited && status !== 401) out["RateLimit-Policy"] = HEADERS.rateLimitPolicy;
  if (status === 401) out["WWW-Authenticate"] = HEADERS.wwwAuthenticate;
  if (status === 429) {
    out["Retry-After"] = HEADERS.retryAfter("trying again");
    if (limited) out.RateLimit = HEADERS.rateLimit;
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
  return Object.keys(out).length > 0 ? out : undefined;
}
