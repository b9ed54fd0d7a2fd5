import type { AppContext } from "../env";
import { ApiError } from "../platform/errors";
import { ADMIN_HOST_LABEL, hostLabel, hostOrigin, RESERVED_SLUGS } from "./host";
import { tenantDb } from "./pool";
import { findTenantBySlug } from "./registry";
import { requireOwnShard } from "./shard";

const unknownWorkspace = (c: AppContext) =>
  new ApiError(
    "not_found",
    `Unknown workspace: a workspace is reached on its own host, ${hostOrigin(c.env, "<slug>")}/api/v1`,
  );

/** Sets `tenant` and `db` from the request host; unknown, reserved or suspended tenants are a 404. */
export async function resolveTenant(c: AppContext): Promise<void> {
  const slug = hostLabel(c.req.url, c.env);
  if (!slug || RESERVED_SLUGS.has(slug)) throw unknownWorkspace(c);
  const tenant = await findTenantBySlug(c.env, slug);
  if (tenant?.status !== "active") throw unknownWorkspace(c);
  requireOwnShard(c.env, tenant);
  c.set("tenant", tenant);
  c.set("db", tenantDb(c.env, tenant.dbBinding));
}

/** Admin routes exist only on `admin.<domain>`; elsewhere they are unknown routes. */
export function requireAdminHost(c: AppContext): void {
  if (hostLabel(c.req.url, c.env) !== ADMIN_HOST_LABEL) throw new ApiError("not_found", "Route not found");
}
