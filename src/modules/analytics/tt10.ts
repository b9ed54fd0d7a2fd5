import { sql } from "drizzle-orm";
import type { Bindings } from "../../env";
import { invalidField, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { tenantDb } from "../../tenancy/pool";
import { findTenantById } from "../../tenancy/registry";

export interface Tt10Input {
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The target is ten assignments within ten minutes of the first asset created. */
export const TT10_TARGET_MINUTES = 10;
const FAR_PAST = "0000-01-01T00:00:00.000Z";
const FAR_FUTURE = "9999-12-31T23:59:59.999Z";

type Row = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  status: string;
  firstAssetCreatedAt: string | null;
  tenthAssignedAt: string | null;
};

/**
 * Time to ten (docs/analytics.md#tt10-report), per user of the workspace, in user id order (paginated): when the
 * user first created an asset (the CREATED timeline entry they are the actor of) and when they made
 * their tenth checkout, both within [from, to). Users without ten checkouts are listed with nulls
 * and `meetsTarget: false`. Each user costs two index seeks (asset_timeline_created_by_idx,
 * assignments_by_idx), whatever the size of the workspace.
 */
export async function tt10Report(env: Bindings, tenantId: string, input: Tt10Input) {
  if (input.from && input.to && Date.parse(input.from) >= Date.parse(input.to))
    throw invalidField("query.from", "must be before `to`");
  const tenant = await findTenantById(env, tenantId);
  if (!tenant || tenant.status === "provisioning") throw notFound("Tenant");
  const db = tenantDb(env, tenant.dbBinding);
  const from = input.from ? new Date(input.from).toISOString() : FAR_PAST;
  const to = input.to ? new Date(input.to).toISOString() : FAR_FUTURE;
  const page = keyset(input, { by: [sql`u.id`] });
  const rows = await db.all<Row>(sql`SELECT u.id, u.email, u.name, u.role, u.status,
      (SELECT min(t.at) FROM asset_timeline t WHERE t.actor = u.id AND t.type = 'CREATED' AND t.at >= ${from} AND t.at < ${to}) AS firstAssetCreatedAt,
      (SELECT g.checked_out_at FROM assignments g WHERE g.checked_out_by = u.id AND g.checked_out_at >= ${from} AND g.checked_out_at < ${to}
        ORDER BY g.checked_out_at LIMIT 1 OFFSET 9) AS tenthAssignedAt
    FROM users u ${page.seek ? sql`WHERE ${page.seek}` : sql``} ORDER BY ${sql.join(page.orderBy, sql`, `)} LIMIT ${page.take}`);
  const users = page.of(
    rows,
    (r) => [r.id],
    (r) => {
      const minutes =
        r.firstAssetCreatedAt && r.tenthAssignedAt
          ? Math.round(((Date.parse(r.tenthAssignedAt) - Date.parse(r.firstAssetCreatedAt)) / 60_000) * 100) / 100
          : null;
      return {
        userId: r.id,
        email: r.email,
        name: r.name,
        role: r.role,
        status: r.status,
        firstAssetCreatedAt: r.firstAssetCreatedAt,
        tenthAssignedAt: r.tenthAssignedAt,
        tt10Minutes: minutes,
        meetsTarget: minutes !== null && minutes < TT10_TARGET_MINUTES,
      };
    },
  );
  return {
    tenantId,
    from: input.from ? from : null,
    to: input.to ? to : null,
    targetMinutes: TT10_TARGET_MINUTES,
    ...users,
  };
}
