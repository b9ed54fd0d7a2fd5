import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { licenceLots, licenceProducts, licenceSeats } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import { keyset } from "../../platform/pagination";
import { fromMinor } from "../assets";
import { addDays } from "./terms";

const DAY = 86_400_000;
/** A seat unused this long counts as under-used; a term ending this soon as expiring. */
const WINDOW_DAYS = 30;

/** Seats used vs owned, per lot and per product, a page of products by name. */
export async function trueUp(db: TenantDb, q: { limit: number; cursor?: string; productId?: string }) {
  const page = keyset(q, { by: [sql`lower(${licenceProducts.name})`, licenceProducts.id] });
  const products = await db
    .select()
    .from(licenceProducts)
    .where(
      and(isNull(licenceProducts.deletedAt), q.productId ? eq(licenceProducts.id, q.productId) : undefined, page.seek),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const cut = page.of(
    products,
    (p) => [p.name.toLowerCase(), p.id],
    (p) => p,
  );
  const ids = cut.items.map((p) => p.id);
  const since = new Date(Date.now() - WINDOW_DAYS * DAY).toISOString();
  const [lots, used] = await Promise.all([
    db
      .select()
      .from(licenceLots)
      .where(and(inJson(licenceLots.productId, ids), isNull(licenceLots.deletedAt)))
      .orderBy(asc(licenceLots.id))
      .all(),
    db
      .select({ productId: licenceSeats.productId, n: sql<number>`count(*)` })
      .from(licenceSeats)
      .where(
        and(
          inJson(licenceSeats.productId, ids),
          isNull(licenceSeats.unassignedAt),
          sql`${licenceSeats.lastUsedAt} >= ${since}`,
        ),
      )
      .groupBy(licenceSeats.productId)
      .all(),
  ]);
  const usedBy = new Map(used.map((u) => [u.productId, u.n]));
  return {
    items: cut.items.map((p) => {
      const own = lots.filter((l) => l.productId === p.id);
      const unlimited = own.some((l) => l.seats === null);
      const seats = unlimited ? null : own.reduce((n, l) => n + (l.seats ?? 0), 0);
      const assigned = own.reduce((n, l) => n + l.assignedCount, 0);
      return {
        productId: p.id,
        productName: p.name,
        seats,
        assigned,
        usedLast30Days: usedBy.get(p.id) ?? 0,
        over: seats === null ? 0 : Math.max(0, assigned - seats),
        lots: own.map((l) => ({ lotId: l.id, kind: l.kind, seats: l.seats, assigned: l.assignedCount })),
      };
    }),
    nextCursor: cut.nextCursor,
  };
}

/**
 * The compliance report, a page of lots by id: over-assigned (more open seats than owned),
 * under-used (open seats unused for 30 days) and expiring (ends within 30 days without renewing itself).
 */
export async function compliance(
  db: TenantDb,
  today: string,
  q: { limit: number; cursor?: string; only?: "over_assigned" | "under_used" | "expiring" },
) {
  const since = new Date(Date.now() - WINDOW_DAYS * DAY).toISOString();
  const soon = addDays(today, WINDOW_DAYS);
  const unused = sql<number>`(SELECT count(*) FROM ${licenceSeats} WHERE ${licenceSeats.lotId} = ${licenceLots.id} AND ${licenceSeats.unassignedAt} IS NULL AND coalesce(${licenceSeats.lastUsedAt}, ${licenceSeats.assignedAt}) < ${since})`;
  const expiring = sql`(${licenceLots.endDate} >= ${today} AND ${licenceLots.endDate} <= ${soon} AND ${licenceLots.autoRenew} = 0)`;
  const filter =
    q.only === "over_assigned"
      ? sql`${licenceLots.seats} IS NOT NULL AND ${licenceLots.assignedCount} > ${licenceLots.seats}`
      : q.only === "under_used"
        ? sql`${unused} > 0`
        : q.only === "expiring"
          ? expiring
          : undefined;
  const page = keyset(q, { by: [licenceLots.id] });
  const rows = await db
    .select({ lot: licenceLots, productName: licenceProducts.name, unused, expiring: sql<number>`${expiring}` })
    .from(licenceLots)
    .innerJoin(licenceProducts, eq(licenceProducts.id, licenceLots.productId))
    .where(and(isNull(licenceLots.deletedAt), filter, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.lot.id],
    (r) => ({
      lotId: r.lot.id,
      productId: r.lot.productId,
      productName: r.productName,
      kind: r.lot.kind,
      seats: r.lot.seats,
      assigned: r.lot.assignedCount,
      overAssigned: r.lot.seats === null ? 0 : Math.max(0, r.lot.assignedCount - r.lot.seats),
      unusedSeats: r.unused,
      endDate: r.lot.endDate,
      expiring: !!r.expiring,
    }),
  );
}

/** A lot's cost spread over a year, in SQL (monthly ×12, multi-year ÷ years). */
export const annual = (cost: unknown) =>
  sql`CASE ${licenceLots.renewal} WHEN 'monthly' THEN ${cost} * 12 WHEN 'multi_year' THEN ${cost} / coalesce(${licenceLots.renewalYears}, 2) ELSE ${cost} END`;

/** Cost per product per year (per currency), and of the seats people hold per department (people.department). */
export async function costReport(db: TenantDb, q: { productId?: string }) {
  const byProduct = q.productId ? eq(licenceLots.productId, q.productId) : undefined;
  const [totals, depts] = await Promise.all([
    db
      .select({
        productId: licenceLots.productId,
        productName: licenceProducts.name,
        currency: licenceLots.currency,
        annualCostMinor: sql<number>`cast(round(sum(${annual(licenceLots.costMinor)})) AS integer)`,
      })
      .from(licenceLots)
      .innerJoin(licenceProducts, and(eq(licenceProducts.id, licenceLots.productId), isNull(licenceProducts.deletedAt)))
      .where(and(isNull(licenceLots.deletedAt), sql`${licenceLots.costMinor} IS NOT NULL`, byProduct))
      .groupBy(licenceLots.productId, licenceLots.currency)
      .orderBy(licenceProducts.name, licenceLots.productId, licenceLots.currency)
      .all(),
    db
      .select({
        productId: licenceLots.productId,
        currency: licenceLots.currency,
        department: people.department,
        seats: sql<number>`count(*)`,
        annualCostMinor: sql<number>`cast(round(sum(${annual(licenceSeats.costMinor)})) AS integer)`,
      })
      .from(licenceSeats)
      .innerJoin(licenceLots, eq(licenceLots.id, licenceSeats.lotId))
      .innerJoin(people, eq(people.id, licenceSeats.holderId))
      .where(
        and(
          isNull(licenceSeats.unassignedAt),
          eq(licenceSeats.holderKind, "person"),
          isNull(licenceLots.deletedAt),
          byProduct,
        ),
      )
      .groupBy(licenceLots.productId, licenceLots.currency, people.department)
      .orderBy(licenceLots.productId, people.department)
      .all(),
  ]);
  return {
    items: totals.map((t) => ({
      productId: t.productId,
      productName: t.productName,
      currency: t.currency,
      annualCostMinor: t.annualCostMinor,
      annualCost: t.currency ? fromMinor(t.annualCostMinor, t.currency) : t.annualCostMinor,
      byDepartment: depts
        .filter((d) => d.productId === t.productId && d.currency === t.currency)
        .map((d) => ({ department: d.department, seats: d.seats, annualCostMinor: d.annualCostMinor })),
    })),
  };
}
