import { and, eq, gte, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { licenceLots, licenceProducts } from "../../db/tenant/licences";
import type { TenantDb } from "../../env";
import { keyset } from "../../platform/pagination";
import { fromMinor } from "../assets";
import { keyCounts } from "./lots";
import { addDays, reminderDay } from "./terms";
import { toLot } from "./view";

/** Today in a time zone, `YYYY-MM-DD`. */
export function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/**
 * Lots whose term ends (or renews) from today to `days` ahead, soonest first, with the total cost
 * of the whole window per currency. Terms that renew themselves have their end moved on by the
 * cron, so their `endDate` is always the coming one.
 */
export async function renewalsList(db: TenantDb, today: string, q: { limit: number; cursor?: string; days: number }) {
  const horizon = addDays(today, q.days);
  const window = and(
    isNull(licenceLots.deletedAt),
    isNotNull(licenceLots.endDate),
    gte(licenceLots.endDate, today),
    lte(licenceLots.endDate, horizon),
  );
  const page = keyset(q, { by: [licenceLots.endDate, licenceLots.id] });
  const [rows, totals] = await Promise.all([
    db
      .select({ lot: licenceLots, productName: licenceProducts.name })
      .from(licenceLots)
      .innerJoin(licenceProducts, eq(licenceProducts.id, licenceLots.productId))
      .where(and(window, page.seek))
      .orderBy(...page.orderBy)
      .limit(page.take)
      .all(),
    db
      .select({
        currency: licenceLots.currency,
        costMinor: sql<number>`coalesce(sum(${licenceLots.costMinor}), 0)`,
        lots: sql<number>`count(*)`,
      })
      .from(licenceLots)
      .where(window)
      .groupBy(licenceLots.currency)
      .orderBy(licenceLots.currency)
      .all(),
  ]);
  const keys = await keyCounts(
    db,
    rows.map((r) => r.lot.id),
  );
  const out = page.of(
    rows,
    (r) => [r.lot.endDate, r.lot.id],
    (r) => ({
      ...toLot(r.lot, keys(r.lot.id)),
      productName: r.productName,
      reminderDate: reminderDay(r.lot.endDate!, r.lot.noticeDays),
    }),
  );
  return {
    ...out,
    totals: totals.map((t) => ({
      currency: t.currency,
      costMinor: t.costMinor,
      cost: t.currency ? fromMinor(t.costMinor, t.currency) : t.costMinor,
      lots: t.lots,
    })),
  };
}
