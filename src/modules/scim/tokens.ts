import { mintScimToken } from "../../access/scim-token";
import { scimTokens } from "../../db/tenant/scim";
import { revokeCredential } from "../../events/revoke";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";

type ScimTokenRow = typeof scimTokens.$inferSelect;

/** Never the token or its hash. */
const toScimToken = (r: ScimTokenRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
  revokedAt: r.revokedAt,
});

/** Newest first, revoked tokens included (with `revokedAt`). */
export async function listScimTokens({ db }: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [scimTokens.id], desc: true });
  const rows = await db
    .select()
    .from(scimTokens)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toScimToken);
}

export async function createScimToken(ctx: ServiceCtx, input: { name: string }) {
  const minted = await mintScimToken();
  const row: ScimTokenRow = {
    id: newId("scimToken"),
    name: input.name,
    prefix: minted.prefix,
    tokenHash: minted.hash,
    createdBy: ctx.actor,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: nowIso(),
  };
  await commitWrite(ctx, {
    writes: [ctx.db.insert(scimTokens).values(row)],
    audits: [
      {
        entityType: "scim_token",
        entityId: row.id,
        action: "create",
        actor: ctx.actor,
        at: row.createdAt,
        after: toScimToken(row),
      },
    ],
    events: [{ type: "scim_token.created", subjectId: row.id, payload: toScimToken(row) }],
  });
  return { ...toScimToken(row), token: minted.token };
}

/** Immediate and idempotent (src/events/revoke.ts). */
export const revokeScimToken = (ctx: ServiceCtx, id: string) =>
  revokeCredential(ctx, scimTokens, id, { name: "SCIM token", event: "scim_token.revoked" });
