import type { Role } from "../db/tenant/users";
import type { PlanFeature } from "../tenancy/plans";
import type { Scope } from "./scopes";

/**
 * How a route is reached:
 * - `public`: no tenant, no credential (OpenAPI document, docs).
 * - `tenantPublic`: tenant host, no credential (sign-in, refresh, invite acceptance).
 * - `data`: tenant host, `ApiKey` or `Bearer <JWT>` (the resource groups open to API keys).
 * - `jwt`: tenant host, `Bearer <JWT>` only; an API key gets 403.
 * - `scim`: tenant host, `Bearer <SCIM token>` only (the /scim/v2 routes); a SCIM token is refused
 *   everywhere else, and nothing but a SCIM token is accepted there.
 * - `adminPublic` / `admin`: admin host; `admin` needs the platform-admin cookie.
 */
export type Access = "public" | "tenantPublic" | "data" | "jwt" | "scim" | "adminPublic" | "admin";

export interface RouteRule {
  access: Access;
  /** Roles allowed; absent means every role. */
  roles?: readonly Role[];
  /** Plan feature the tenant needs (403 `plan_required` otherwise). */
  feature?: PlanFeature;
  /** Credential-guessing surface: limited per client address (429 with Retry-After). */
  throttled?: boolean;
  /**
   * The API-key scope a `data` route needs (`<group>:read|write`; write implies read). Keys
   * created without scopes have them all. Shown in the OpenAPI `security` of the route.
   */
  scope?: Scope;
  /**
   * A second scope the key needs besides `scope`: an action of another group that changes an
   * asset's custody or existence (kit checkout, booking pick-up, trash purge) also needs
   * `inventory-items:write` (CUSTODY), so a kits, bookings or trash key cannot move assets. It is
   * static: a route that only sometimes changes custody (a person's PATCH, which deactivates when
   * the body says so) needs it for every request.
   */
  alsoScope?: Scope;
  /**
   * Whether the self-service role (`requester`, docs/requests.md) may call it. Every route without it
   * refuses that role (403), so a new route is closed to it until someone decides otherwise; the
   * handlers of these routes narrow what it sees to its own (src/http/self-service.ts).
   */
  selfService?: boolean;
  /** Whether a POST accepts `Idempotency-Key` (default: every POST with credentials, except read scopes). */
  idempotent?: boolean;
  /**
   * The answer carries a secret shown once (a key, token, signing secret, ticket or signed URL):
   * an `Idempotency-Key` replay answers 409 `secret_shown_once` and the answer is never stored.
   */
  issuesSecret?: boolean;
}

/** POSTs that create or act accept `Idempotency-Key`; a POST that only reads (health batch) does not need it. */
export const acceptsIdempotencyKey = (method: string, rule: RouteRule): boolean =>
  rule.idempotent ??
  (method.toLowerCase() === "post" &&
    (rule.access === "data" || rule.access === "jwt") &&
    !rule.scope?.endsWith(":read"));
