import { and, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { codes, type Symbology, tagBatches } from "../../db/tenant/labels";
import { stockItems } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { inJson, insertJsonRows } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { normaliseCodeValue } from "./symbols";

/**
 * Tag batches (docs/labels.md "Tags before assets"): codes reserved, and printed, before the
 * equipment they will name arrives; each is claimed later (./codes.ts).
 */
interface BatchInput {
  symbology: Symbology;
  prefix?: string;
  start?: number;
  digits?: number;
  count?: number;
  values?: string[];
}

/** The values of a batch: imported ones, or prefix + zero-padded sequence. */
function batchValues(input: BatchInput) {
  if (input.values && (input.count !== undefined || input.prefix !== undefined))
    throw invalidField("body", "pass either values, or prefix and count");
  if (input.values) return input.values.map((v, i) => normaliseCodeValue(input.symbology, v, `body.values.${i}`));
  if (input.count === undefined) throw invalidField("body.count", "required (or pass values)");
  const start = input.start ?? 1;
  const digits = input.digits ?? 5;
  return Array.from({ length: input.count }, (_, i) =>
    normaliseCodeValue(
      input.symbology,
      `${input.prefix ?? ""}${String(start + i).padStart(digits, "0")}`,
      "body.prefix",
    ),
  );
}

/** Reserves a batch of tag codes ahead of the equipment; 409 listing values already taken. */
export async function reserveBatch(ctx: ServiceCtx, input: BatchInput & { name: string }) {
  const values = batchValues(input);
  const seen = new Set<string>();
  for (const [i, v] of values.entries()) {
    if (seen.has(v.toLowerCase())) throw invalidField(`body.values.${i}`, `'${v}' is listed twice`);
    seen.add(v.toLowerCase());
  }
  const taken = await takenValues(ctx.db, [...seen]);
  if (taken.length)
    throw conflict(
      `already taken: ${taken.slice(0, 20).join(", ")}${taken.length > 20 ? ` and ${taken.length - 20} more` : ""}`,
      { taken },
    );
  const at = nowIso();
  const batch = {
    id: newId("tagBatch"),
    name: input.name,
    symbology: input.symbology,
    count: values.length,
    createdAt: at,
    createdBy: ctx.actor,
  };
  const base = Date.now();
  // Ids one millisecond apart: the list (by id) shows the batch in its printed order.
  const rows = values.map((v, i) => ({
    id: newId("code", base + i),
    value: v,
    valueLc: v.toLowerCase(),
    symbology: input.symbology,
    status: "reserved" as const,
    batchId: batch.id,
    createdAt: at,
    updatedAt: at,
  }));
  const { createdBy: _by, ...view } = batch;
  try {
    await commitWrite(ctx, {
      writes: [ctx.db.insert(tagBatches).values(batch), insertJsonRows(ctx.db, codes, rows)],
      audits: [
        { entityType: "tag_batch", entityId: batch.id, action: "create", actor: ctx.actor, at, after: { ...view } },
      ],
      events: [{ type: "tag_batch.created", subjectId: batch.id, payload: view }],
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("some of these values were taken meanwhile; list them again");
    throw err;
  }
  return { ...view, values };
}

/** Which of the (lower-case) values a live code, asset tag or stock item tag already holds (three reads side by side). */
async function takenValues(db: TenantDb, lcs: string[]): Promise<string[]> {
  const reads = await Promise.all([
    db
      .select({ v: codes.value })
      .from(codes)
      .where(and(inJson(codes.valueLc, lcs), sql`${codes.status} <> 'void'`))
      .all(),
    db
      .select({ v: assets.uniqueTag })
      .from(assets)
      .where(and(inJson(sql`lower(${assets.uniqueTag})`, lcs), sql`${assets.deletedAt} IS NULL`))
      .all(),
    db
      .select({ v: stockItems.tag })
      .from(stockItems)
      .where(and(inJson(sql`lower(${stockItems.tag})`, lcs), sql`${stockItems.deletedAt} IS NULL`))
      .all(),
  ]);
  return reads.flat().map((r) => r.v);
}
