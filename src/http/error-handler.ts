import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError, type ErrorCode } from "../platform/errors";
import { isMoveFence, workspaceMoving } from "../tenancy/shard";
import type { AllowedMethods } from "./allowed-methods";

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: "bad_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** Error bodies stay small whatever the input: at most this many details, each message cut short. */
export const MAX_DETAILS = 20;
const MAX_MESSAGE = 500;
const cut = (s: string) => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s);

/** The first MAX_DETAILS entries, then one entry counting the rest. */
function boundedDetails(details: unknown): unknown {
  if (!Array.isArray(details)) return details;
  const shown = details
    .slice(0, MAX_DETAILS)
    .map((d: unknown) =>
      d && typeof d === "object" && "message" in d && typeof d.message === "string"
        ? { ...d, message: cut(d.message) }
        : d,
    );
  const rest = details.length - shown.length;
  return rest > 0 ? [...shown, { path: "(more)", message: `${rest} more not shown` }] : shown;
}

function envelope(c: Context<AppEnv>, err: ApiError) {
  const requestId = c.get("requestId") ?? "";
  const body = {
    message: cut(err.message),
    code: err.code,
    ...(err.details !== undefined ? { details: boundedDetails(err.details) } : {}),
    requestId,
  };
  const res = c.json(body, err.status);
  for (const [k, v] of Object.entries(err.headers ?? {})) res.headers.set(k, v);
  res.headers.set("x-request-id", requestId);
  return res;
}

/** The one place errors become responses: ApiError as is, Hono's HTTP errors mapped, the rest a bare 500. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return envelope(c, err);
  if (err instanceof HTTPException) {
    const code = CODE_FOR_STATUS[err.status] ?? (err.status >= 500 ? "internal_error" : "bad_request");
    const message =
      err.status === 400 && /JSON/i.test(err.message)
        ? "Request body is not valid JSON"
        : err.status === 415
          ? "Unsupported Media Type: send the body with the Content-Type the route documents (`Content-Type: application/json` for JSON bodies)"
          : err.message || code;
    return envelope(c, new ApiError(code, message));
  }
  // A write that reached the old shard's database during a move's switch: refused whole, to be retried.
  if (isMoveFence(err)) return envelope(c, workspaceMoving());
  console.error("unhandled error", c.get("requestId"), err);
  return envelope(c, new ApiError("internal_error", "Internal error; quote the requestId when reporting it"));
};

/**
 * No route for this method and path: a 405 with `Allow` when the path is served with other methods
 * (`allowed`, from the app's route table), else a 404.
 */
export const notFoundWith =
  (allowed: AllowedMethods): NotFoundHandler<AppEnv> =>
  (c) => {
    const path = new URL(c.req.url).pathname;
    const methods = allowed(path);
    if (methods.length > 0 && !methods.includes(c.req.method.toUpperCase()))
      return envelope(
        c,
        new ApiError(
          "method_not_allowed",
          `Method not allowed: ${c.req.method} ${path}; allowed: ${methods.join(", ")}`,
          {
            headers: { Allow: methods.join(", ") },
          },
        ),
      );
    return envelope(c, new ApiError("not_found", `Route not found: ${c.req.method} ${path}`));
  };

/** The handler of an app with no method table (every miss a 404). */
export const onNotFound: NotFoundHandler<AppEnv> = notFoundWith(() => []);
