import { sql } from "drizzle-orm";
import type { ServiceCtx } from "../../http/service-context";
import { chunk } from "../../platform/d1";
import { decodeCursor, toPage } from "../../platform/pagination";
import { TRASH_TYPES, type TrashType } from "./schemas";
import { nameColumnOf, tableOf } from "./tables";

interface EntryRow {
  type: TrashType;
  id: string;
  name: string;
  deletedAt: string;
  deletedBy: string | null;
}

/**
 * The trash, newest deletion first (deletedAt desc, then id desc), as one UNION ALL query per page.
 * Each branch seeks its own (deleted_at, id) index past the cursor and stops at limit + 1 rows, so a
 * page reads at most (types) × (limit + 1) rows however large the trash is; 4 parameters per branch keep
 * the statement far below D1's 100.
 */
export async function listTrash({ db }: ServiceCtx, input: { limit: number; cursor?: string; type?: TrashType[] }) {
  const after = decodeCursor(input.cursor, 2);
  const types = input.type ?? TRASH_TYPES;
  const seek = after ? sql`AND (deleted_at, id) < (${after[0]}, ${after[1]})` : sql``;
  const branches = types.map(
    (type) => sql`SELECT * FROM (
      SELECT ${sql.raw(`'${type}'`)} AS type, id, ${nameColumnOf(type)} AS name, deleted_at AS deletedAt, deleted_by AS deletedBy
      FROM ${tableOf(type)}
      WHERE deleted_at IS NOT NULL ${seek}
      ORDER BY deleted_at DESC, id DESC
      LIMIT ${input.limit + 1})`,
  );
  // D1 allows at most 5 terms in one compound SELECT: branches are unioned in groups of 4, each a
  // subquery, and the groups unioned in turn.
  const groups = chunk(branches, 4).map((g) => sql`SELECT * FROM (${sql.join(g, sql` UNION ALL `)})`);
  const rows = await db.all<EntryRow>(
    sql`${sql.join(groups, sql` UNION ALL `)} ORDER BY deletedAt DESC, id DESC LIMIT ${input.limit + 1}`,
  );
  return toPage(
    rows,
    input.limit,
    (r) => [r.deletedAt, r.id],
    (r) => ({ ...r }),
  );
}
