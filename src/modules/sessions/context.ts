import { eq } from "drizzle-orm";
import { sessions } from "../../db/tenant/sessions";
import type { ObjectError, SessionObjectApi } from "../../domain/inventory-session";
import type { AppContext, Bindings } from "../../env";
import { type ServiceCtx, serviceCtx } from "../../http/service-context";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { isId } from "../../platform/ids";
import type { TenantRecord } from "../../tenancy/registry";
import { workspaceMoving } from "../../tenancy/shard";
import { buildInit } from "./object-init";

export type SessionRow = typeof sessions.$inferSelect;

/** Session verbs also reach the session's Durable Object and need the tenant record (slug, database binding). */
export interface SessionCtx extends ServiceCtx {
  env: Bindings;
  tenant: TenantRecord;
}

export const sessionCtx = (c: AppContext): SessionCtx => ({ ...serviceCtx(c), env: c.env, tenant: c.var.tenant });

export async function requireSession(ctx: ServiceCtx, id: string): Promise<SessionRow> {
  const row = isId("session", id) ? await ctx.db.select().from(sessions).where(eq(sessions.id, id)).get() : undefined;
  if (!row) throw notFound("Session");
  return row;
}

/** The session's object: named by tenant and session, so another tenant's session id reaches an empty object. */
export function sessionObject(ctx: Pick<SessionCtx, "env" | "tenantId">, sessionId: string): SessionObjectApi {
  const ns = ctx.env.INVENTORY_SESSION;
  // The stub's generated RPC types wrap every field; the class implements SessionObjectApi, so this view is exact.
  return ns.get(ns.idFromName(`${ctx.tenantId}:${sessionId}`)) as unknown as SessionObjectApi;
}

export type SessionStub = SessionObjectApi;

const isError = (v: unknown): v is ObjectError => typeof v === "object" && v !== null && "error" in v;

export const closedConflict = (status: string) =>
  conflict(`The session is ${status}: it no longer accepts scans or changes`, { status });

/**
 * Calls the session's object. An object that was never loaded (the start's load failed, or the
 * session runs on a fresh deployment) is loaded from D1 and the call repeated; a session that does
 * not exist here is a 404 and a draft a 409. `closed` (completed or cancelled) becomes a 409.
 */
export async function callObject<T>(
  ctx: SessionCtx,
  sessionId: string,
  call: (stub: SessionStub) => Promise<T>,
): Promise<Exclude<T, ObjectError>> {
  if (!isId("session", sessionId)) throw notFound("Session");
  const stub = sessionObject(ctx, sessionId);
  let res = await call(stub);
  if (isError(res) && res.error === "uninitialized") {
    const row = await requireSession(ctx, sessionId);
    if (row.status === "draft")
      throw conflict('The session has not started yet: start it with PATCH {"status": "active"}', {
        status: row.status,
      });
    if (row.status === "cancelled" && !row.startedAt) throw closedConflict(row.status);
    await stub.init(await buildInit(ctx, row));
    res = await call(stub);
  }
  if (isError(res)) {
    if (res.error === "closed") throw closedConflict(res.status);
    if (res.error === "moving") throw workspaceMoving();
    if (res.error === "uninitialized")
      throw new ApiError("service_unavailable", "The session could not be loaded; retry shortly");
  }
  return res as Exclude<T, ObjectError>;
}
