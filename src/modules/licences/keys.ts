import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { openSecret, sealSecret, secretKeyMaterial } from "../../access/sso/secret-box";
import { licenceKeys, licenceLots } from "../../db/tenant/licences";
import type { Bindings, TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { requireLot } from "./lots";

/**
 * Product keys are secrets: sealed with the workspace-bound AES-GCM box that guards SSO client
 * secrets (the plaintext is never stored), left out of every lot, list, event, audit row, export
 * and idempotency record, and opened only by GET /licence-lots/{lotId}/keys, which admins alone may call.
 */
export async function addKey(
  ctx: ServiceCtx,
  env: Bindings,
  lotId: string,
  input: { key: string; label?: string | null },
) {
  return addSealedKey(ctx, lotId, {
    keySealed: await sealKey(env, ctx.tenantId, input.key),
    label: input.label ?? null,
  });
}

/** A product key sealed for the workspace, as stored: what a CSV import keeps between its plan and its write. */
export const sealKey = (env: Bindings, tenantId: string, key: string) =>
  sealSecret(secretKeyMaterial(env), tenantId, key);

/** The keys stored on lots, opened (to tell a key already there from a new one); admins' reading is `revealKeys`. */
export async function openKeysOf(db: TenantDb, env: Bindings, tenantId: string, lotIds: readonly string[]) {
  const rows = lotIds.length ? await db.select().from(licenceKeys).where(inJson(licenceKeys.lotId, lotIds)).all() : [];
  const material = secretKeyMaterial(env);
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = out.get(r.lotId) ?? new Set<string>();
    set.add(await openSecret(material, tenantId, r.keySealed));
    out.set(r.lotId, set);
  }
  return out;
}

/** Adds a key already sealed (`sealKey`) to a lot; the answer names it, never shows it. */
export async function addSealedKey(ctx: ServiceCtx, lotId: string, input: { keySealed: string; label: string | null }) {
  const lot = await requireLot(ctx.db, lotId);
  const at = nowIso();
  const row = {
    id: newId("licenceKey"),
    lotId,
    label: input.label,
    keySealed: input.keySealed,
    createdAt: at,
    createdBy: ctx.actor,
  };
  const ref = { id: row.id, lotId, label: row.label, createdAt: at };
  await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(
          ctx.db,
          "licence_lot_live",
          sql`EXISTS (SELECT 1 FROM ${licenceLots} WHERE ${licenceLots.id} = ${lotId} AND ${licenceLots.deletedAt} IS NULL)`,
        ),
      ],
      writes: [
        ctx.db.insert(licenceKeys).values(row),
        ctx.db.update(licenceLots).set({ updatedAt: at }).where(eq(licenceLots.id, lotId)),
      ],
      // The key itself is never audited: only that one was added, and its label.
      audits: [
        {
          entityType: "licence_lot",
          entityId: lot.id,
          action: "key_added",
          actor: ctx.actor,
          at,
          after: { keyId: row.id, label: row.label },
        },
      ],
    },
    (err) => {
      if (guardFailed(err, "licence_lot_live")) throw notFound("Licence lot");
      throw err;
    },
  );
  return ref;
}

/** The lot's keys in plain text (admins only, by the route policy). */
export async function revealKeys(ctx: ServiceCtx, env: Bindings, lotId: string) {
  await requireLot(ctx.db, lotId);
  const rows = await ctx.db
    .select()
    .from(licenceKeys)
    .where(eq(licenceKeys.lotId, lotId))
    .orderBy(asc(licenceKeys.id))
    .all();
  const material = secretKeyMaterial(env);
  return {
    items: await Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        lotId,
        label: r.label,
        createdAt: r.createdAt,
        key: await openSecret(material, ctx.tenantId, r.keySealed),
      })),
    ),
  };
}

export async function deleteKey(ctx: ServiceCtx, lotId: string, keyId: string) {
  await requireLot(ctx.db, lotId);
  const gone = await ctx.db
    .select({ id: licenceKeys.id })
    .from(licenceKeys)
    .where(and(eq(licenceKeys.id, keyId), eq(licenceKeys.lotId, lotId)))
    .get();
  if (!gone) throw notFound("Licence key");
  const at = nowIso();
  await commitWrite(ctx, {
    writes: [
      ctx.db.delete(licenceKeys).where(and(eq(licenceKeys.id, keyId), eq(licenceKeys.lotId, lotId))),
      ctx.db
        .update(licenceLots)
        .set({ updatedAt: at })
        .where(and(eq(licenceLots.id, lotId), isNull(licenceLots.deletedAt))),
    ],
    audits: [
      { entityType: "licence_lot", entityId: lotId, action: "key_removed", actor: ctx.actor, at, after: { keyId } },
    ],
  });
}
