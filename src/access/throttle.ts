import type { AppContext } from "../env";
import { ApiError } from "../platform/errors";
import { hostLabel } from "../tenancy/host";

export const THROTTLE_PERIOD_SECONDS = 60;

/**
 * The client address. Only Cloudflare may set `cf-connecting-ip`: at its edge it overwrites
 * whatever a client sent, so in a deployment the header is the address. Locally (`wrangler dev`,
 * ENVIRONMENT=development) nothing overwrites it and any client could pick a fresh "address" per
 * attempt, so it is ignored unless TRUST_CLIENT_IP=true (e.g. behind a local proxy that sets it).
 */
export function clientAddress(c: AppContext): string {
  const trusted = c.env.ENVIRONMENT !== "development" || c.env.TRUST_CLIENT_IP === "true";
  return (trusted ? c.req.header("cf-connecting-ip") : undefined) ?? "unknown";
}

/**
 * Per-address limit on sign-in style routes, keyed by workspace, operation and client address
 * (`clientAddress`). The budget is the `AUTH_LIMITER` binding's (wrangler.toml: 20 per 60 s,
 * counted per Cloudflare location).
 */
export async function throttle(c: AppContext, operationId: string): Promise<void> {
  const address = clientAddress(c);
  const { success } = await c.env.AUTH_LIMITER.limit({
    key: `${hostLabel(c.req.url, c.env) ?? "-"}:${operationId}:${address}`,
  });
  if (!success) {
    throw new ApiError("rate_limited", "Too many attempts; try again later", {
      headers: { "Retry-After": String(THROTTLE_PERIOD_SECONDS) },
    });
  }
}
