import { and, eq, sql } from "drizzle-orm";
import { type CodeHolderKind, codes, SYMBOLOGIES, type Symbology } from "../../db/tenant/labels";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { ApiError, invalidField } from "../../platform/errors";
import { attachCode } from "./codes";
import { normaliseCodeValue } from "./symbols";

/**
 * A thing's codes as one CSV cell (the `codes` column of import and export, docs/import-export.md):
 * `symbology:value` entries separated by `; `, e.g. `code128:C128-DRILL; ean13:4006381333931`. A
 * `;` inside a value is kept unless a symbology's name and `:` follow it.
 */
export const MAX_CODES_PER_CELL = 10;

const ENTRY = new RegExp(`;\\s*(?=(?:${SYMBOLOGIES.join("|")}):)`, "i");

export interface CodeEntry {
  symbology: Symbology;
  value: string;
}

export const codesCell = (list: readonly CodeEntry[]) => list.map((c) => `${c.symbology}:${c.value}`).join("; ");

/** The entries of a cell, each value checked for its symbology; a 400 naming `path` and the entry otherwise. */
export function parseCodesCell(cell: string, path: string): CodeEntry[] {
  const text = cell.trim();
  if (!text) return [];
  const parts = text.split(ENTRY).map((p) => p.trim());
  if (parts.length > MAX_CODES_PER_CELL)
    throw invalidField(path, `at most ${MAX_CODES_PER_CELL} codes in one cell (attach more with POST /codes)`);
  const seen = new Set<string>();
  return parts.map((part) => {
    const colon = part.indexOf(":");
    const symbology = part.slice(0, colon).trim().toLowerCase() as Symbology;
    if (colon < 0 || !SYMBOLOGIES.includes(symbology))
      throw invalidField(path, `'${part}' is not symbology:value (symbologies: ${SYMBOLOGIES.join(", ")})`);
    let value: string;
    try {
      value = normaliseCodeValue(symbology, part.slice(colon + 1), path);
    } catch (err) {
      if (err instanceof ApiError)
        throw invalidField(
          path,
          `'${part}': ${(err.details as { message: string }[] | undefined)?.[0]?.message ?? err.message}`,
        );
      throw err;
    }
    if (seen.has(value.toLowerCase())) throw invalidField(path, `'${value}' is listed twice`);
    seen.add(value.toLowerCase());
    return { symbology, value };
  });
}

/** The live (claimed) codes of these holders, as cells by holder id: one query for a page of an export. */
export async function codeCellsOf(db: TenantDb, kind: CodeHolderKind, ids: readonly string[]) {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ holderId: codes.holderId, symbology: codes.symbology, value: codes.value })
    .from(codes)
    .where(
      and(
        eq(codes.holderKind, kind),
        eq(codes.status, "active"),
        sql`${codes.holderId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    )
    .orderBy(codes.holderId, codes.id)
    .all();
  const byHolder = new Map<string, CodeEntry[]>();
  for (const r of rows) byHolder.set(r.holderId!, [...(byHolder.get(r.holderId!) ?? []), r]);
  for (const [id, list] of byHolder) out.set(id, codesCell(list));
  return out;
}

/**
 * Gives a holder the codes of an imported cell that it does not have yet, each through the attach
 * verb (its audit entry and `code.created` event); codes it has that the cell leaves out stay (an
 * import adds, it never voids). The first refusal (a value on something else) is thrown as is.
 */
export async function addCodes(ctx: ServiceCtx, holder: { kind: CodeHolderKind; id: string }, list: CodeEntry[]) {
  if (list.length === 0) return;
  const have = await ctx.db
    .select({ lc: codes.valueLc })
    .from(codes)
    .where(and(eq(codes.holderKind, holder.kind), eq(codes.holderId, holder.id), eq(codes.status, "active")))
    .all();
  const owned = new Set(have.map((r) => r.lc));
  for (const c of list) if (!owned.has(c.value.toLowerCase())) await attachCode(ctx, { ...c, holder });
}
