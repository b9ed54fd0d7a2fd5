import { and, eq, sql } from "drizzle-orm";
import { offboardingCases, offboardingItems } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import type { ItemRow } from "./holdings";
import type { OffboardingCase, OffboardingItem } from "./schemas";

export type CaseRow = typeof offboardingCases.$inferSelect;
type Counts = OffboardingCase["items"];
const NO_ITEMS: Counts = { total: 0, outstanding: 0, returned: 0, withdrawn: 0 };

export function toCase(r: CaseRow, personName: string | null, items: Counts): OffboardingCase {
  return {
    id: r.id,
    personId: r.personId,
    personName,
    state: r.state,
    source: r.source,
    requestId: r.requestId,
    dueAt: r.dueAt,
    startedBy: r.startedBy,
    startedAt: r.startedAt,
    overdueAt: r.overdueAt,
    closedAt: r.closedAt,
    cancelledAt: r.cancelledAt,
    cancelledBy: r.cancelledBy,
    items,
    receipt: r.receipt ?? null,
  };
}

/** Counts by state from item rows (for a case whose items are in hand). */
export function countsOf(items: readonly Pick<ItemRow, "state">[]): Counts {
  const c = { ...NO_ITEMS, total: items.length };
  for (const i of items) c[i.state]++;
  return c;
}

export const toItem = (r: ItemRow): OffboardingItem => ({
  kind: r.kind,
  itemId: r.itemId,
  name: r.name,
  reference: r.reference,
  parentAssetId: r.parentAssetId,
  quantity: r.quantity,
  state: r.state,
  returnedAt: r.returnedAt,
});

/** Presents case rows with their person's name and item counts: two reads for a whole page. */
export async function presentCases(db: TenantDb, rows: readonly CaseRow[]): Promise<OffboardingCase[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [names, counts] = await Promise.all([
    db
      .select({ id: people.id, name: people.name })
      .from(people)
      .where(
        inJson(
          people.id,
          rows.map((r) => r.personId),
        ),
      )
      .all(),
    db
      .select({ caseId: offboardingItems.caseId, state: offboardingItems.state, n: sql<number>`count(*)` })
      .from(offboardingItems)
      .where(inJson(offboardingItems.caseId, ids))
      .groupBy(offboardingItems.caseId, offboardingItems.state)
      .all(),
  ]);
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return rows.map((r) => {
    const c = { ...NO_ITEMS };
    for (const x of counts.filter((k) => k.caseId === r.id)) {
      c[x.state] = x.n;
      c.total += x.n;
    }
    return toCase(r, nameOf.get(r.personId) ?? null, c);
  });
}

export async function presentCase(db: TenantDb, row: CaseRow) {
  return (await presentCases(db, [row]))[0]!;
}

/** The open case of a person, if any. */
export const openCaseOf = (db: TenantDb, personId: string) =>
  db
    .select()
    .from(offboardingCases)
    .where(and(eq(offboardingCases.personId, personId), eq(offboardingCases.state, "open")))
    .get();
