import type { Role } from "../db/tenant/users";
import type { PlanFeature } from "../tenancy/plans";
import { type OperationId, ROUTE_POLICY, type RouteRule } from "./policy";

/**
 * The operations a signed-in user may call on their workspace, from this table: the routes that
 * take credentials (`data`, `jwt`) whose roles include `role` and whose plan feature the workspace
 * has. GET /auth/permissions answers it, so a client (the field app among them) shows only what
 * the API will accept; the guard still decides every call.
 */
export function permittedOperations(role: Role, hasFeature: (f: PlanFeature) => boolean): OperationId[] {
  return (Object.entries(ROUTE_POLICY) as [OperationId, RouteRule][])
    .filter(
      ([, rule]) =>
        (rule.access === "data" || rule.access === "jwt") &&
        (!rule.roles || rule.roles.includes(role)) &&
        (role !== "requester" || rule.selfService === true) &&
        (!rule.feature || hasFeature(rule.feature)),
    )
    .map(([id]) => id)
    .sort();
}
