import { eq } from "drizzle-orm";
import { ssoConfigs } from "../../db/control/sso";
import type { Bindings } from "../../env";
import { planIncludes } from "../../tenancy/plans";
import { controlDb, type TenantRecord } from "../../tenancy/registry";

/**
 * The workspace SSO record and the flags read from it, below the modules: the password sign-in
 * (modules/auth) asks for the SSO-only gate and modules/sso builds on sessions of modules/auth, so
 * the gate lives here rather than in modules/sso (no cycle between the two).
 */

export type SsoConfigRow = typeof ssoConfigs.$inferSelect;
export async function loadSsoConfig(env: Bindings, tenantId: string): Promise<SsoConfigRow | undefined> {
  return controlDb(env).select().from(ssoConfigs).where(eq(ssoConfigs.tenantId, tenantId)).get();
}
/** The SSO flags of the sign-in screen and the configuration: the gate counts only while the plan includes SSO. */
export function ssoFlags(tenant: TenantRecord, row: SsoConfigRow | undefined) {
  const ssoAccess = planIncludes(tenant.plan, "sso");
  const ssoOnlyEnabled = row?.ssoOnlyEnabled ?? false;
  return { ssoAccess, ssoOnlyEnabled, ssoLoginEnabled: ssoAccess && ssoOnlyEnabled && !!row };
}

/**
 * Whether the SSO-only gate applies to password sign-in (docs/sso.md#the-sso-only-gate): the owner turned it
 * on, SSO is configured and the plan includes SSO. A downgraded plan lifts the gate, so nobody is
 * locked out of a workspace whose SSO no longer works.
 */
export async function ssoGateOn(env: Bindings, tenant: TenantRecord): Promise<boolean> {
  return ssoFlags(tenant, await loadSsoConfig(env, tenant.id)).ssoLoginEnabled;
}
