import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors";
import { hostLabel, RESERVED_SLUGS } from "../../tenancy/host";
import { findTenantBySlug, settingsOf } from "../../tenancy/registry";

export const MAX_CORS_ORIGINS = 20;
const ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE";
const ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key";
const EXPOSE_HEADERS = "x-request-id, Retry-After, WWW-Authenticate";

/** `https://app.example.com` as the browser sends it: scheme, host and port only; null when not that. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.origin === value.toLowerCase().replace(/\/$/, "") ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * CORS for workspace hosts: an `Origin` on the workspace's allowlist (PUT /settings/cors, owner) is
 * echoed back, never `*`, and credentials (cookies) are never allowed: callers send Authorization.
 * Preflights are answered here, before any route: 204 for an allowed origin, 403 otherwise, 404 on
 * a host that is not a workspace. The admin host never answers cross-origin requests.
 */
export const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (!origin) return next();
  const preflight = c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined;
  const slug = hostLabel(c.req.url, c.env);
  const tenant = slug && !RESERVED_SLUGS.has(slug) ? await findTenantBySlug(c.env, slug) : undefined;
  const allowed = tenant?.status === "active" && settingsOf(tenant).corsOrigins.includes(normalizeOrigin(origin) ?? "");
  if (preflight) {
    if (tenant?.status !== "active") throw new ApiError("not_found", "Unknown workspace");
    if (!allowed)
      throw new ApiError(
        "forbidden",
        `Origin ${origin} is not allowed: the workspace owner lists allowed origins with PUT /settings/cors`,
      );
    return c.body(null, 204, {
      "Access-Control-Allow-Origin": normalizeOrigin(origin)!,
      "Access-Control-Allow-Methods": ALLOW_METHODS,
      "Access-Control-Allow-Headers": ALLOW_HEADERS,
      "Access-Control-Max-Age": "600",
      Vary: "Origin",
    });
  }
  await next();
  c.res.headers.append("Vary", "Origin");
  if (allowed) {
    c.res.headers.set("Access-Control-Allow-Origin", normalizeOrigin(origin)!);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  }
};
