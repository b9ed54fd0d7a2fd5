import { and, eq } from "drizzle-orm";
import { assets, assignments } from "../../db/tenant/assets";
import type { ServiceCtx } from "../../http/service-context";
import { keyset } from "../../platform/pagination";
import { getPerson } from "./service";

/** Every checkout of the person, newest first, with the asset's current name and tag (null once permanently deleted). */
export async function personAssignmentHistory(
  ctx: ServiceCtx,
  personId: string,
  input: { limit: number; cursor?: string },
) {
  await getPerson(ctx, personId);
  const page = keyset(input, { by: [assignments.id], desc: true });
  const rows = await ctx.db
    .select({ a: assignments, assetName: assets.name, assetUniqueTag: assets.uniqueTag })
    .from(assignments)
    .leftJoin(assets, eq(assets.id, assignments.assetId))
    .where(and(eq(assignments.personId, personId), eq(assignments.holderKind, "person"), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.a.id],
    (r) => ({
      id: r.a.id,
      assetId: r.a.assetId,
      assetName: r.assetName,
      assetUniqueTag: r.assetUniqueTag,
      personId: r.a.personId,
      personName: r.a.personName,
      checkedOutAt: r.a.checkedOutAt,
      checkedOutBy: r.a.checkedOutBy,
      dueBackAt: r.a.dueBackAt,
      checkedInAt: r.a.checkedInAt,
      checkedInBy: r.a.checkedInBy,
      checkinReason: r.a.checkinReason,
      checkinNotes: r.a.checkinNotes,
    }),
  );
}
