import type { TenantMoveRecord } from "../../db/control/schema";
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

export const toMove = (m: TenantMoveRecord) => ({
  moveId: m.id,
  tenantId: m.tenantId,
  fromShard: m.fromShard,
  toShard: m.toShard,
  state: m.state,
  copiedRows: m.copiedRows,
  changedRows: m.changedRows,
  sessions: m.sessions,
  switchMs: m.switchMs,
  error: m.error,
  startedAt: m.startedAt,
  updatedAt: m.updatedAt,
  finishedAt: m.finishedAt,
});
