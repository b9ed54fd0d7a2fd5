import type { Bindings } from "../../env";
import type { TenantRecord } from "../../tenancy/registry";
import { loadSsoConfig, ssoFlags } from "./config";

/**
 * Whether the SSO-only gate applies to password sign-in (SPEC 5 rules 3-4): the owner turned it
 * on, SSO is configured and the plan includes SSO. A downgraded plan lifts the gate, so nobody is
 * locked out of a workspace whose SSO no longer works.
 */
export async function ssoGateOn(env: Bindings, tenant: TenantRecord): Promise<boolean> {
  return ssoFlags(tenant, await loadSsoConfig(env, tenant.id)).ssoLoginEnabled;
}
