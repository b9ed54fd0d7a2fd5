import type { AppContext } from "../env";
import { ApiError } from "../platform/errors";
import { hostLabel } from "../tenancy/host";

export const THROTTLE_PERIOD_SECONDS = 60;

/**
 * Per-address limit on sign-in style routes, keyed by workspace, operation and client address
 * (`cf-connecting-ip`, set by Cloudflare). The budget is the `AUTH_LIMITER` binding's
 * (wrangler.toml: 20 per 60 s, counted per Cloudflare location).
 */
export async function throttle(c: AppContext, operationId: string): Promise<void> {
  const address = c.req.header("cf-connecting-ip") ?? "unknown";
  const { success } = await c.env.AUTH_LIMITER.limit({
    key: `${hostLabel(c.req.url, c.env) ?? "-"}:${operationId}:${address}`,
  });
  if (!success) {
    throw new ApiError("rate_limited", "Too many attempts; try again later", {
      headers: { "Retry-After": String(THROTTLE_PERIOD_SECONDS) },
    });
  }
}
