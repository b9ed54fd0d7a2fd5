import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { stockItems, stockMovements } from "../../db/tenant/stock";
import { allLive, peopleActive } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { batchable, type GuardCheck } from "../../platform/d1-write";

/**
 * What a movement relies on besides the quantities, checked in the batch's guard and written by
 * it: the locations it brings units to are live, the person, asset or location it issues to is
 * still there, a returnable item stays returnable, the issue it returns is still open by that much.
 * Collected over all the movements of a batch into set checks (one JSON parameter each), so a
 * batch of 100 movements stays within D1's 100 bound parameters per statement.
 */
export interface MovementNeeds {
  locations?: string[];
  personId?: string;
  assetId?: string;
  /** The item must still be returnable (an open issue must stay returnable). */
  returnable?: boolean;
  /** A return: the units it takes off its issue's open quantity. */
  closes?: { issueId: string; quantity: number };
}

const json = (v: unknown) => JSON.stringify(v);
const ids = (v: readonly string[]) => sql`(SELECT value FROM json_each(${json(v)}))`;

const uniq = (v: (string | undefined)[]) => [...new Set(v.filter((x): x is string => !!x))];

/** The checks and writes of the movements' needs (none: nothing). */
export function needsStatements(db: TenantDb, moves: readonly { row: { itemId: string }; needs?: MovementNeeds }[]) {
  const locs = uniq(moves.flatMap((m) => m.needs?.locations ?? []));
  const persons = uniq(moves.map((m) => m.needs?.personId));
  const things = uniq(moves.map((m) => m.needs?.assetId));
  const returnable = uniq(moves.map((m) => (m.needs?.returnable ? m.row.itemId : undefined)));
  const closes = new Map<string, number>();
  for (const m of moves)
    if (m.needs?.closes)
      closes.set(m.needs.closes.issueId, (closes.get(m.needs.closes.issueId) ?? 0) + m.needs.closes.quantity);
  const closing = json([...closes]);
  const checks: GuardCheck[] = [];
  if (locs.length) checks.push({ name: "stock_locations", holds: allLive("location", locs) });
  if (persons.length || things.length)
    checks.push({
      name: "stock_target",
      holds: sql`${peopleActive(persons)} AND ${allLive("asset", things)}`,
    });
  if (returnable.length)
    checks.push({
      name: "stock_returnable",
      holds: sql`(SELECT count(*) FROM ${stockItems} WHERE ${stockItems.id} IN ${ids(returnable)} AND ${stockItems.returnable} = 1) = ${returnable.length}`,
    });
  const writes: BatchItem<"sqlite">[] = [];
  if (closes.size) {
    checks.push({
      name: "stock_issue_open",
      holds: sql`NOT EXISTS (SELECT 1 FROM json_each(${closing}) j WHERE coalesce((SELECT ${stockMovements.openQuantity} FROM ${stockMovements}
        WHERE ${stockMovements.id} = j.value ->> 0), 0) < j.value ->> 1)`,
    });
    writes.push(
      batchable(
        db,
        db.run(sql`UPDATE ${stockMovements} SET open_quantity = open_quantity - (j.value ->> 1)
          FROM json_each(${closing}) AS j WHERE ${stockMovements.id} = j.value ->> 0`),
      ),
    );
  }
  return { checks, writes };
}
