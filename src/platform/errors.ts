import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Machine-readable error codes; each maps to exactly one HTTP status. */
export const ERROR_STATUS = {
  validation_failed: 400,
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  plan_required: 403,
  /** Password sign-in refused by the workspace's SSO-only gate (docs/sso.md#the-sso-only-gate). */
  sso_required: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  /** An If-Match that no longer names the resource's current version (SCIM's meta.version). */
  precondition_failed: 412,
  /** A replayed Idempotency-Key of a request that issued a secret: the secret is not stored. */
  secret_shown_once: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  /** An identity provider (OIDC discovery, token endpoint, JWKS) could not be reached or failed. */
  idp_unreachable: 502,
  service_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type of the service. Thrown anywhere; `onError` turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { details?: unknown; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new ApiError("not_found", `${what} not found`);
export const conflict = (message: string, details?: unknown) => new ApiError("conflict", message, { details });
export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new ApiError("validation_failed", message, { details });
/** A 400 naming one field, e.g. an unknown categoryId. */
export const invalidField = (path: string, message: string) =>
  new ApiError("validation_failed", `${path}: ${message}`, { details: [{ path, message }] });
