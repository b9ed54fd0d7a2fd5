import type { AppContext } from "../../env";
import { type ServiceCtx, serviceCtx } from "../../http/service-context";
import type { Plan } from "../../tenancy/plans";

/** A SCIM request's context: who writes, the request id events carry, and the base URL of meta.location. */
export interface ScimCtx extends ServiceCtx {
  requestId: string;
  base: string;
  plan: Plan;
}

export function scimCtx(c: AppContext): ScimCtx {
  return {
    ...serviceCtx(c),
    requestId: c.var.requestId,
    base: `${new URL(c.req.url).origin}/scim/v2`,
    plan: c.var.tenant.plan,
  };
}
