import { and, eq, isNull } from "drizzle-orm";
import { normaliseScopes, type Scope } from "../../access/scopes";
import { apiKeys } from "../../db/tenant/users";
import { revokeCredential } from "../../events/revoke";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { mintApiKey } from "../../platform/api-key-token";
import { nowIso } from "../../platform/clock";
import { inJson } from "../../platform/d1-write";
import { invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { type ApiKeyRow, toApiKey } from "./view";

/** Newest first, revoked keys included (with `revokedAt`) so the history stays visible. */
export async function listApiKeys({ db }: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [apiKeys.id], desc: true });
  const rows = await db
    .select()
    .from(apiKeys)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toApiKey);
}

export async function createApiKey(
  ctx: ServiceCtx,
  input: { name: string; scopes?: Scope[] | null; expiresAt?: string | null },
) {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  if (expiresAt && expiresAt <= nowIso()) throw invalidField("body.expiresAt", "must be in the future");
  const key = await mintApiKey();
  const row: ApiKeyRow = {
    id: newId("apiKey"),
    name: input.name,
    prefix: key.prefix,
    keyHash: key.hash,
    createdBy: ctx.actor,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: nowIso(),
    // Absent scopes mean every scope; an empty list is refused by the schema.
    scopes: input.scopes ? JSON.stringify(normaliseScopes(input.scopes)) : null,
    expiresAt,
  };
  await commitWrite(ctx, {
    writes: [ctx.db.insert(apiKeys).values(row)],
    events: [{ type: "api_key.created", subjectId: row.id, payload: toApiKey(row) }],
  });
  return { ...toApiKey(row), token: key.token };
}

/** Immediate and idempotent (src/events/revoke.ts). */
export const revokeApiKey = (ctx: ServiceCtx, id: string) =>
  revokeCredential(ctx, apiKeys, id, { name: "API key", event: "api_key.revoked" });

/**
 * Revokes every live key a user made (their integrations end with their access): one statement,
 * one event per key revoked.
 */
export async function revokeApiKeysCreatedBy(ctx: ServiceCtx, userId: string): Promise<number> {
  const now = nowIso();
  const live = await ctx.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.createdBy, userId), isNull(apiKeys.revokedAt)))
    .all();
  if (live.length === 0) return 0;
  const ids = live.map((k) => k.id);
  await commitWrite(ctx, {
    writes: [
      ctx.db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(inJson(apiKeys.id, ids), isNull(apiKeys.revokedAt))),
    ],
    events: ids.map((id) => ({ type: "api_key.revoked", subjectId: id, payload: { id, revokedAt: now } })),
  });
  return ids.length;
}
