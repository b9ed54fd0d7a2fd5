import { z } from "@hono/zod-openapi";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError } from "../platform/errors";

/** RFC 7644 section 3.1: SCIM requests and responses are `application/scim+json`. */
export const SCIM_CONTENT_TYPE = "application/scim+json";
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** RFC 7644 section 3.12: the error body; `status` is a string. */
export const ScimErrorSchema = z
  .object({
    schemas: z.array(z.string()).openapi({ example: [SCIM_ERROR_SCHEMA] }),
    status: z.string().openapi({ example: "409" }),
    scimType: z.string().optional().openapi({
      description: "invalidFilter, tooMany, uniqueness, mutability, invalidSyntax, invalidPath, noTarget, invalidValue",
      example: "uniqueness",
    }),
    detail: z.string().openapi({ example: "A user with the userName 'ada@example.com' already exists" }),
  })
  .openapi("ScimError");

/** A SCIM error with its scimType, e.g. `scimError("conflict", "uniqueness", "…")`. */
export const scimError = (
  code: ConstructorParameters<typeof ApiError>[0],
  scimType: string | undefined,
  detail: string,
) => new ApiError(code, detail, { details: { scimType } });

/**
 * RFC 7644 section 3.12's scimType of an error: the one it names, else read from where validation
 * failed: the filter parameter is invalidFilter, a body that is not a SCIM object (or sets a
 * prototype, or has too many keys) invalidSyntax, any other bad value invalidValue.
 */
const scimTypeOf = (err: ApiError): string | undefined => {
  const d = err.details as { scimType?: string } | { path?: string }[] | undefined;
  if (d && !Array.isArray(d) && typeof d.scimType === "string") return d.scimType;
  if (Array.isArray(d) && err.code === "validation_failed") {
    const path = String(d[0]?.path ?? "");
    if (path === "query.filter") return "invalidFilter";
    if (path === "body" || path.startsWith("body.")) return "invalidSyntax";
  }
  if (err.code === "validation_failed") return "invalidValue";
  if (err.code === "conflict") return "uniqueness";
  return undefined;
};

export function scimErrorResponse(c: Context<AppEnv>, err: ApiError): Response {
  const body = {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(err.status),
    ...(scimTypeOf(err) ? { scimType: scimTypeOf(err) } : {}),
    detail: err.message.length > 500 ? `${err.message.slice(0, 500)}…` : err.message,
  };
  const headers = new Headers(err.headers);
  headers.set("content-type", SCIM_CONTENT_TYPE);
  headers.set("x-request-id", c.get("requestId") ?? "");
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

/** The SCIM router's error handler: the same errors as the API's, in the SCIM error shape. */
export const onScimError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return scimErrorResponse(c, err);
  if (err instanceof HTTPException) {
    const json = err.status === 400 && /JSON/i.test(err.message);
    const code =
      err.status === 415 ? "unsupported_media_type" : err.status === 413 ? "payload_too_large" : "bad_request";
    const detail = json
      ? "Request body is not valid JSON"
      : err.status === 415
        ? "Send the body as application/scim+json (application/json is accepted too)"
        : err.message || code;
    return scimErrorResponse(
      c,
      new ApiError(code, detail, { details: { scimType: json ? "invalidSyntax" : undefined } }),
    );
  }
  console.error("unhandled error", c.get("requestId"), err);
  return scimErrorResponse(
    c,
    new ApiError("internal_error", "Internal error; quote the x-request-id when reporting it"),
  );
};
