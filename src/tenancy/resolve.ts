import type { AppContext } from "../env";
import { ApiError } from "../platform/errors";
import { ADMIN_HOST_LABEL, hostLabel, RESERVED_SLUGS } from "./host";
import { tenantDb } from "./pool";
import { findTenantBySlug } from "./registry";

const unknownWorkspace = () => new ApiError("not_found", "Unknown workspace: check the workspace URL");

/** Sets `tenant` and `db` from the request host; unknown, reserved or suspended tenants are a 404. */
export async function resolveTenant(c: AppContext): Promise<void> {
  const slug = hostLabel(c.req.url);
  if (!slug || RESERVED_SLUGS.has(slug)) throw unknownWorkspace();
  const tenant = await findTenantBySlug(c.env, slug);
  if (!tenant || tenant.status !== "active") throw unknownWorkspace();
  c.set("tenant", tenant);
  c.set("db", tenantDb(c.env, tenant.dbBinding));
}

/** Admin routes exist only on `admin.<domain>`; elsewhere they are unknown routes. */
export function requireAdminHost(c: AppContext): void {
  if (hostLabel(c.req.url) !== ADMIN_HOST_LABEL) throw new ApiError("not_found", "Route not found");
}
