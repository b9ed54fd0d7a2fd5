import { asc, eq, gt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { scimGroups, scimUsers } from "../../db/tenant/scim";
import type { ScimCtx } from "./context";
import { indexedEquality, matches, parseFilter } from "./filter";
import type { Json } from "./resource";

type ScimTable = typeof scimUsers | typeof scimGroups;

/**
 * A page of the stored resources of `table` that match `filter` (RFC 7644 section 3.4.2), with the
 * count of every match. An equality on the resource's name (`nameAttr`, case-insensitive on `name`),
 * externalId or id is one indexed read: the probe providers send before a create. Any other filter is
 * matched in id order, `chunk` rows at a time (bounded memory: a Group row carries its members).
 */
export async function listMatching<Row extends { id: string }>(
  ctx: ScimCtx,
  spec: {
    table: ScimTable;
    nameAttr: string;
    name: SQLiteColumn;
    present: (ctx: ScimCtx, row: Row) => Json;
    chunk: number;
  },
  q: { filter?: string; startIndex: number; count: number },
): Promise<{ total: number; rows: Row[] }> {
  const filter = parseFilter(q.filter);
  const probe = indexedEquality(filter, [spec.nameAttr, "externalId", "id"]);
  // The two tables share the columns read here (id, externalId); drizzle's types cannot see that through the union.
  const t = spec.table as typeof scimUsers;
  const read = (where: SQL | undefined, limit?: number) => {
    const query = ctx.db.select().from(t).where(where).orderBy(asc(t.id));
    return (limit ? query.limit(limit) : query).all() as unknown as Promise<Row[]>;
  };
  const found: Row[] = [];
  let total = 0;
  const take = (rows: Row[]) => {
    for (const r of rows) {
      if (!matches(filter, spec.present(ctx, r))) continue;
      total++;
      if (total >= q.startIndex && found.length < q.count) found.push(r);
    }
  };
  if (probe) {
    take(
      await read(
        probe.attr === spec.nameAttr
          ? sql`lower(${spec.name}) = lower(${probe.value})`
          : probe.attr === "id"
            ? eq(t.id, probe.value)
            : eq(t.externalId, probe.value),
      ),
    );
  } else {
    for (let after = ""; ; ) {
      const rows = await read(gt(t.id, after), spec.chunk);
      take(rows);
      if (rows.length < spec.chunk) break;
      after = rows[rows.length - 1]!.id;
    }
  }
  return { total, rows: found };
}
