import { type SQL, sql } from "drizzle-orm";
import { recordTombstones } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { conflict, notFound } from "../../platform/errors";
import { eachInOrder, settle } from "./outcome";
import { PURGE_PLANS } from "./purge-plans";
import type { TrashRef, TrashResult } from "./schemas";
import { stillTrashed, TRASH_TABLES, tableOf } from "./tables";

type Row = Record<string, unknown>;

/** Throws the item's failure (not found, live, still referenced); returns the row when it may be purged. */
async function checkPurgeable({ db }: ServiceCtx, ref: TrashRef): Promise<Row> {
  const label = TRASH_TABLES[ref.type].label;
  const row = await db.get<Row>(sql`SELECT * FROM ${tableOf(ref.type)} WHERE id = ${ref.id}`);
  if (!row) throw notFound(label);
  if (row.deleted_at === null) throw conflict(`${label} is not in the trash; move it to the trash first`);
  const blockers = PURGE_PLANS[ref.type].blockers(ref.id);
  if (blockers.length > 0) {
    const counts = await db.get<Record<string, number>>(
      sql`SELECT ${sql.join(
        blockers.map((b, i) => sql`${b.count} AS ${sql.raw(`b${i}`)}`),
        sql`, `,
      )}`,
    );
    const found = blockers.map((b, i) => ({ n: counts?.[`b${i}`] ?? 0, noun: b.noun })).filter((b) => b.n > 0);
    if (found.length > 0) {
      throw conflict(
        `${label} is still referenced by ${found.map((b) => `${b.n} ${b.noun}`).join("; ")}`,
        found.map((b) => ({ count: b.n, reason: b.noun })),
      );
    }
  }
  return row;
}

/**
 * Purges one trashed row and what only it owned in one batch (one transaction). Every statement is
 * guarded by "still in the trash and nothing references it", so a restore or a new reference that
 * lands between the check and the batch makes the whole batch a no-op instead of half a purge.
 */
async function purgeOne(ctx: ServiceCtx, ref: TrashRef, files?: R2Bucket): Promise<void> {
  const row = await checkPurgeable(ctx, ref);
  const plan = PURGE_PLANS[ref.type];
  const blockers = plan.blockers(ref.id);
  const guard: SQL =
    blockers.length > 0
      ? sql`${stillTrashed(ref.type, ref.id)} AND (${sql.join(
          blockers.map((b) => b.count),
          sql` + `,
        )}) = 0`
      : stillTrashed(ref.type, ref.id);
  const owned = plan.owned(ref.id, row).map((stmt) => stmt(ctx.db, guard));
  const payload = {
    id: ref.id,
    type: ref.type,
    name: String(row[TRASH_TABLES[ref.type].name]),
    deletedAt: row.deleted_at,
    deletedBy: row.deleted_by,
    purgedAt: nowIso(),
  };
  const mine = sql`id = ${ref.id} AND ${guard}`;
  // The row as it was, for syncs (`updatedSince`) that did not see it in the trash (docs/api-platform.md).
  const tombstone = recordTombstones(ctx.db, ref.type, TRASH_TABLES[ref.type].table, mine, payload.purgedAt);
  const del = ctx.db.delete(tableOf(ref.type)).where(mine);
  // Owned rows and the tombstone go first: their guard reads the row, which the DELETE then removes.
  const done = await commitWrite(ctx, {
    writes: [...owned, tombstone],
    ...ifChanged(ctx, del, { type: `${ref.type}.purged`, subjectId: ref.id, payload }),
  });
  if (changedRows(done) === 0) {
    await checkPurgeable(ctx, ref); // throws the precise reason when the state changed meanwhile
    throw conflict("The item changed while it was being deleted; try again");
  }
  if (ref.type === "asset" && typeof row.image_key === "string") await dropImage(ctx, row.image_key, files);
}

/**
 * The asset's image, unless another asset points at the same object. After the batch (R2 is not
 * part of a D1 transaction) and best effort: a leftover object is unreachable, not wrong.
 */
async function dropImage({ db, tenantId }: ServiceCtx, key: string, files?: R2Bucket): Promise<void> {
  if (!files || !key.startsWith(`tenants/${tenantId}/`)) return;
  const shared = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM assets WHERE image_key = ${key}`);
  if ((shared?.n ?? 0) > 0) return;
  await files.delete(key).catch((err: unknown) => console.error("could not delete purged asset image", key, err));
}

export function purgeItems(ctx: ServiceCtx, items: readonly TrashRef[], files?: R2Bucket): Promise<TrashResult[]> {
  return eachInOrder(items, (ref) => settle(ref, "deleted", () => purgeOne(ctx, ref, files)));
}
