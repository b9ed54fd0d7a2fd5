import { and, eq } from "drizzle-orm";
import { offboardingCases, offboardingItems } from "../../db/tenant/offboarding";
import type { TenantDb } from "../../env";
import { notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import type { CaseRow } from "./view";
import { presentCases, toItem } from "./view";

/** Cases, newest first, optionally of one state or person. */
export async function listCases(
  db: TenantDb,
  q: { limit: number; cursor?: string; state?: CaseRow["state"]; personId?: string },
) {
  const page = keyset(q, { by: [offboardingCases.id], desc: true });
  const rows = await db
    .select()
    .from(offboardingCases)
    .where(
      and(
        q.state ? eq(offboardingCases.state, q.state) : undefined,
        q.personId ? eq(offboardingCases.personId, q.personId) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const result = page.of(
    rows,
    (r) => [r.id],
    (r) => r,
  );
  return { ...result, items: await presentCases(db, result.items) };
}

export async function requireCase(db: TenantDb, id: string): Promise<CaseRow> {
  const row = await db.select().from(offboardingCases).where(eq(offboardingCases.id, id)).get();
  if (!row) throw notFound("Offboarding case");
  return row;
}

/** A case's items: by kind (asset, kit, request, stock), then id. */
export async function listItems(
  db: TenantDb,
  caseId: string,
  q: { limit: number; cursor?: string; state?: "outstanding" | "returned" | "withdrawn" },
) {
  await requireCase(db, caseId);
  const page = keyset(q, { by: [offboardingItems.kind, offboardingItems.itemId] });
  const rows = await db
    .select()
    .from(offboardingItems)
    .where(
      and(eq(offboardingItems.caseId, caseId), q.state ? eq(offboardingItems.state, q.state) : undefined, page.seek),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.kind, r.itemId], toItem);
}
