import { actorId } from "../access/principal";
import type { AppContext, TenantDb } from "../env";
import { settingsOf, type TenantSettings } from "../tenancy/registry";

/** What a service verb needs from a request: the tenant database and who is acting. */
export interface ServiceCtx {
  db: TenantDb;
  actor: string;
  tenantId: string;
  /** The workspace settings as of the request (time zone, health preset); absent in some jobs. */
  settings?: TenantSettings;
  /** The R2 bucket, for verbs that check uploaded objects (asset images). */
  files?: R2Bucket;
}

export function serviceCtx(c: AppContext): ServiceCtx {
  return {
    db: c.var.db,
    actor: actorId(c.var.principal),
    tenantId: c.var.tenant.id,
    settings: settingsOf(c.var.tenant),
    files: c.env.FILES,
  };
}
