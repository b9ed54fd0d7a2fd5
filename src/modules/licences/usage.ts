import { isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { licenceProducts, licenceSeats, licenceUsage } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { inJson, insertJsonRows } from "../../platform/d1-write";
import { badRequest } from "../../platform/errors";
import { instantOf } from "../../platform/schemas";

export interface UsageReport {
  productId: string;
  personId?: string;
  assetId?: string;
  usedAt: string;
}

/**
 * Records usage reports from any source, in bulk. A report is its (product, holder, instant,
 * source): sending it again stores nothing new, so a collector may retry freely. Each open seat of
 * the product held by the report's holder keeps its last use (`lastUsedAt` only moves forward).
 * Whatever the number of reports: three reads and one batch of three statements.
 */
export async function recordUsage(ctx: ServiceCtx, input: { source?: string; reports: UsageReport[] }) {
  const { db } = ctx;
  const source = input.source ?? "api";
  const reports = input.reports.map((r) => ({
    productId: r.productId,
    holderKind: r.personId ? ("person" as const) : ("asset" as const),
    holderId: (r.personId ?? r.assetId)!,
    usedAt: instantOf(r.usedAt),
  }));
  const productIds = [...new Set(reports.map((r) => r.productId))];
  const holderIds = [...new Set(reports.map((r) => r.holderId))];
  const [products, holders, seats] = await Promise.all([
    db.select({ id: licenceProducts.id }).from(licenceProducts).where(inJson(licenceProducts.id, productIds)).all(),
    db
      .select({ id: people.id })
      .from(people)
      .where(inJson(people.id, holderIds))
      .union(db.select({ id: assets.id }).from(assets).where(inJson(assets.id, holderIds)))
      .all(),
    db
      .select({
        id: licenceSeats.id,
        productId: licenceSeats.productId,
        holderKind: licenceSeats.holderKind,
        holderId: licenceSeats.holderId,
      })
      .from(licenceSeats)
      .where(
        sql`${inJson(licenceSeats.holderId, holderIds)} AND ${inJson(licenceSeats.productId, productIds)} AND ${isNull(licenceSeats.unassignedAt)}`,
      )
      .all(),
  ]);
  const knownProducts = new Set(products.map((p) => p.id));
  const knownHolders = new Set(holders.map((h) => h.id));
  const problems = reports.flatMap((r, i) => [
    ...(knownProducts.has(r.productId)
      ? []
      : [{ path: `body.reports.${i}.productId`, message: `unknown licence product ${r.productId}` }]),
    ...(knownHolders.has(r.holderId)
      ? []
      : [{ path: `body.reports.${i}.${r.holderKind}Id`, message: `unknown ${r.holderKind} ${r.holderId}` }]),
  ]);
  if (problems.length) throw badRequest(problems[0]!.message, problems);
  const seatOf = new Map(seats.map((s) => [`${s.productId} ${s.holderKind} ${s.holderId}`, s.id]));
  const at = nowIso();
  const rows = reports.map((r) => ({
    ...r,
    source,
    seatId: seatOf.get(`${r.productId} ${r.holderKind} ${r.holderId}`) ?? null,
    recordedAt: at,
  }));
  // The latest use per seat, as one JSON parameter.
  const latest = new Map<string, string>();
  for (const r of rows) if (r.seatId && (latest.get(r.seatId) ?? "") < r.usedAt) latest.set(r.seatId, r.usedAt);
  const perSeat = JSON.stringify([...latest]);
  const done = await commitWrite(ctx, {
    writes: [
      insertJsonRows(db, licenceUsage, rows).onConflictDoNothing(),
      ...(latest.size
        ? [
            db
              .update(licenceSeats)
              .set({
                lastUsedAt: sql`max(coalesce(${licenceSeats.lastUsedAt}, ''), j.value ->> '$[1]')`,
                updatedAt: at,
              })
              .from(sql`json_each(${perSeat}) AS j`)
              .where(
                sql`${licenceSeats.id} = j.value ->> '$[0]' AND coalesce(${licenceSeats.lastUsedAt}, '') < j.value ->> '$[1]'`,
              ),
          ]
        : []),
    ],
  });
  const recorded = (done.results[done.writesAt] as D1Result).meta.changes;
  const touched = latest.size ? (done.results[done.writesAt + 1] as D1Result).meta.changes : 0;
  return {
    recorded,
    duplicates: rows.length - recorded,
    seatsTouched: touched,
    unmatched: rows.flatMap((r, i) => (r.seatId ? [] : [i])),
  };
}
