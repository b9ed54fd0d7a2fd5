import { loadSsoConfig, ssoFlags } from "../../access/sso/gate";
import type { Bindings } from "../../env";
import { hostLabel, RESERVED_SLUGS } from "../../tenancy/host";
import { findTenantBySlug } from "../../tenancy/registry";
import { socialProvider } from "./oidc-flow";

/**
 * for the sign-in screen (docs/sso.md#the-sign-in-page-login). An unknown, reserved or suspended host answers
 * `{ exists: false }` and nothing else, so the screen can say so without revealing more.
 */
export async function bootstrapFor(env: Bindings, url: string) {
  const slug = hostLabel(url, env);
  const tenant = slug && !RESERVED_SLUGS.has(slug) ? await findTenantBySlug(env, slug) : undefined;
  if (tenant?.status !== "active") return { exists: false as const };
  const row = await loadSsoConfig(env, tenant.id);
  const social = socialProvider(env);
  return {
    exists: true as const,
    tenantId: tenant.id,
    ssoProviders: row?.provider ?? null,
    ssoConfigured: !!row,
    ...ssoFlags(tenant, row),
    socialLogin: social ? { name: env.SOCIAL_OIDC_NAME || "Social sign-in" } : null,
  };
}
