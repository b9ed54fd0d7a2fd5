import type { BatchItem } from "drizzle-orm/batch";
import type { TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import type { NotificationRow } from "./view";

/** One reminder's statements: its ledger insert first, then what it writes only if that insert did. */
export interface LedgeredReminder {
  statements: BatchItem<"sqlite">[];
  notifications: NotificationRow[];
}

/**
 * Writes the reminders of a cron chunk in one batch and returns the notifications this run wrote:
 * each reminder's ledger insert says whether its rows went in (a concurrent run's ledger row stops
 * ours, and rows we did not write are never pushed).
 */
export async function commitLedgered(
  db: TenantDb,
  actor: string,
  planned: readonly LedgeredReminder[],
): Promise<NotificationRow[]> {
  const { results, derivedAt } = await commitWrite({ db, actor }, { derived: planned.flatMap((p) => p.statements) });
  const written: NotificationRow[] = [];
  let index = derivedAt;
  for (const p of planned) {
    if ((results[index] as D1Result).meta.changes > 0) written.push(...p.notifications);
    index += p.statements.length;
  }
  return written;
}
