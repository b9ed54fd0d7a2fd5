import type { TenantRecord } from "../../tenancy/registry";

export const toTenant = (t: TenantRecord) => ({
  tenantId: t.id,
  slug: t.slug,
  plan: t.plan,
  status: t.status,
  shard: t.shard,
  settings: t.settings,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});
