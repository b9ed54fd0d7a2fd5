import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../platform/errors";
import { planIncludes } from "../tenancy/plans";
import { requireAdminHost, resolveTenant } from "../tenancy/resolve";
import { authenticatePlatformAdmin, authenticateTenantCaller } from "./authenticate";
import type { RouteRule } from "./policy";
import { rateLimit } from "./rate-limit";
import { authenticateScimToken } from "./scim-token";
import { requireScope } from "./scope-check";
import { throttle } from "./throttle";

/**
 * The per-route middleware built from a route's policy-table entry: resolve the tenant, identify
 * the caller, check role and plan. Runs before validation, so a caller without credentials learns
 * nothing about the request shape.
 */
export function guard(rule: RouteRule, operationId: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { access } = rule;
    if (rule.throttled) await throttle(c, operationId);
    if (access === "admin" || access === "adminPublic") {
      requireAdminHost(c);
      if (access === "admin") c.set("principal", await authenticatePlatformAdmin(c));
      return next();
    }
    if (access === "public") return next();

    await resolveTenant(c);
    if (access === "scim") {
      const principal = await authenticateScimToken(c);
      c.set("principal", principal);
      await rateLimit(c, principal);
      return next();
    }
    if (access === "data" || access === "jwt") {
      const principal = await authenticateTenantCaller(c, access);
      if (rule.roles && !rule.roles.includes(principal.kind === "platformAdmin" ? "owner" : principal.role)) {
        throw new ApiError("forbidden", `This action needs one of the roles: ${rule.roles.join(", ")}`);
      }
      if (principal.kind === "user" && principal.role === "requester" && !rule.selfService)
        throw new ApiError("forbidden", "The self-service role (requester) cannot use this route");
      if (rule.scope && principal.kind === "apiKey") requireScope(principal.scopes, rule.scope);
      if (rule.alsoScope && principal.kind === "apiKey") requireScope(principal.scopes, rule.alsoScope);
      if (rule.feature && !planIncludes(c.var.tenant.plan, rule.feature)) {
        throw new ApiError(
          "plan_required",
          `The ${rule.feature} feature is not included in the ${c.var.tenant.plan} plan`,
          {
            details: { feature: rule.feature, plan: c.var.tenant.plan },
          },
        );
      }
      c.set("principal", principal);
      await rateLimit(c, principal);
    }
    return next();
  };
}
