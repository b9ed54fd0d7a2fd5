import { actorId } from "../auth/principal";
import type { AppContext, TenantDb } from "../env";

/** What a service verb needs from a request: the tenant database and who is acting. */
export interface ServiceCtx {
  db: TenantDb;
  actor: string;
  tenantId: string;
}

export function serviceCtx(c: AppContext): ServiceCtx {
  return { db: c.var.db, actor: actorId(c.var.principal), tenantId: c.var.tenant.id };
}
