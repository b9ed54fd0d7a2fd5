import type { AppContext, Bindings } from "../env";
import { ApiError } from "../platform/errors";
import type { Plan } from "../tenancy/plans";
import { credentialKey, type Principal } from "./principal";

/**
 * Per-plan request budgets, enforced with the Workers rate-limit binding (no storage hop per
 * request). A binding has one fixed budget, so each plan and level has its own binding; these
 * numbers are copied from wrangler.toml's `[[ratelimits]]` (the binding enforces those; this table
 * only documents them in headers and errors). Windows are 60 seconds.
 */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
export const RATE_LIMITS: Record<Plan, { credential: number; workspace: number }> = {
  free: { credential: 120, workspace: 300 },
  pro: { credential: 600, workspace: 1500 },
  enterprise: { credential: 1200, workspace: 6000 },
};

type LimiterName = `RATE_LIMIT_${"KEY" | "WORKSPACE"}_${Uppercase<Plan>}`;
const limiter = (env: Bindings, level: "KEY" | "WORKSPACE", plan: Plan): RateLimit | undefined =>
  env[`RATE_LIMIT_${level}_${plan.toUpperCase()}` as LimiterName];

/**
 * Counts the request against the caller's credential, then its workspace; over either budget is a
 * 429 with `Retry-After` (an upper bound: the binding does not say when its window ends). Every
 * answer carries `RateLimit-Policy` (IETF draft-ietf-httpapi-ratelimit-headers) with the budgets.
 *
 * Fairness (docs/api-platform.md): a request its own credential refuses never reaches the workspace
 * counter, so refused requests cannot drain the budget others share. The workspace budget is the
 * API keys' (integrations) alone: people signed in (JWT) are held to their own budget only, so no
 * number of noisy keys can lock the owner out of the product where they would revoke those keys.
 */
export async function rateLimit(c: AppContext, principal: Principal): Promise<void> {
  // Benchmarks (bench/lib.mjs) measure the API, not the budget: they start the Worker with RATE_LIMITS=off.
  if (c.env.RATE_LIMITS === "off") return;
  const { id: tenantId, plan } = c.var.tenant;
  const budget = RATE_LIMITS[plan];
  const w = RATE_LIMIT_WINDOW_SECONDS;
  c.header("RateLimit-Policy", `"credential";q=${budget.credential};w=${w}, "workspace";q=${budget.workspace};w=${w}`);
  const own = await limiter(c.env, "KEY", plan)?.limit({ key: `${tenantId}:${credentialKey(principal)}` });
  if (own && !own.success) refuse("credential", plan, w);
  if (principal.kind !== "apiKey") return;
  const shared = await limiter(c.env, "WORKSPACE", plan)?.limit({ key: tenantId });
  if (shared && !shared.success) refuse("workspace", plan, w);
}

function refuse(over: "credential" | "workspace", plan: Plan, w: number): never {
  const quota = RATE_LIMITS[plan][over];
  throw new ApiError(
    "rate_limited",
    `Rate limit of the ${over} exceeded (${quota} requests per ${w} s on the ${plan} plan)`,
    {
      details: { limit: over, quota, windowSeconds: w, plan },
      headers: { "Retry-After": String(w), RateLimit: `"${over}";r=0;t=${w}` },
    },
  );
}
