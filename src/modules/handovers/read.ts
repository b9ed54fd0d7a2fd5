import { and, eq, sql } from "drizzle-orm";
import { agreementVersions, handoverReceipts, handovers } from "../../db/tenant/handovers";
import type { ServiceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { agreementOf } from "./decide";
import type { HandoverDetail } from "./schemas";
import { type HandoverRow, toHandover, toReceipt } from "./view";

export async function requireHandover(ctx: ServiceCtx, id: string): Promise<HandoverRow> {
  const row = await ctx.db.select().from(handovers).where(eq(handovers.id, id)).get();
  if (!row) throw notFound("Hand-over");
  return row;
}

/** A hand-over with its agreement filled in: what the person reads before signing. */
export async function handoverDetail(ctx: ServiceCtx, row: HandoverRow): Promise<HandoverDetail> {
  const agreement = await agreementOf(ctx, row);
  return { ...toHandover(row, agreement?.version ?? null), agreementText: agreement?.text ?? null };
}

export async function listHandovers(
  ctx: ServiceCtx,
  input: { limit: number; cursor?: string; state?: HandoverRow["state"]; personId?: string; assetId?: string },
) {
  const page = keyset(input, { by: [handovers.id], desc: true });
  const rows = await ctx.db
    .select({ h: handovers, version: agreementVersions.version })
    .from(handovers)
    .leftJoin(agreementVersions, eq(agreementVersions.id, handovers.agreementVersionId))
    .where(
      and(
        input.state ? eq(handovers.state, input.state) : undefined,
        input.personId ? eq(handovers.personId, input.personId) : undefined,
        input.assetId
          ? sql`EXISTS (SELECT 1 FROM json_each(${handovers.items}) i WHERE json_extract(i.value, '$.assetId') = ${input.assetId})`
          : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.h.id],
    (r) => toHandover(r.h, r.version),
  );
}

export async function listReceipts(ctx: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [handoverReceipts.seq], desc: true });
  const rows = await ctx.db
    .select()
    .from(handoverReceipts)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.seq], toReceipt);
}

export async function requireReceipt(ctx: ServiceCtx, id: string) {
  const row = await ctx.db.select().from(handoverReceipts).where(eq(handoverReceipts.id, id)).get();
  if (!row) throw notFound("Receipt");
  return row;
}
