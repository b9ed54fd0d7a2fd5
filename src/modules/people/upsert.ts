import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { guardFailed } from "../../platform/d1-write";
import { ApiError } from "../../platform/errors";
import { createPerson } from "./service";
import { updatePerson } from "./update";
import {
  decideUpsert,
  describeUpsert,
  type PersonUpsert,
  type PersonUpsertResult,
  readUpsert,
  refuseStranded,
} from "./upsert-plan";

export type { PersonUpsert, PersonUpsertResult } from "./upsert-plan";

const ATTEMPTS = 3;

/**
 * Creates and updates many people as POST/PATCH /people would (same checks, rows, events, audit;
 * a deactivation checks the person's assets in through the asset write recipe), as ONE batch of
 * set-based statements after a fixed number of reads. Each item gets its outcome or the error
 * the single route would have answered. Guarded on the snapshot it was planned from (the targets'
 * `updatedAt`, the locations live, the held assets); a guard failure or an email taken meanwhile
 * plans again from fresh reads; after ATTEMPTS the items go one by one through the single verbs.
 */
export async function upsertPeople(ctx: ServiceCtx, items: readonly PersonUpsert[]): Promise<PersonUpsertResult[]> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    // Read, decide, describe, commit: like the asset upsert.
    const at = nowIso();
    const decided = await refuseStranded(ctx, decideUpsert(items, await readUpsert(ctx, items), at));
    if (!decided.created.length && !decided.updated.length) return decided.results;
    try {
      await commitWrite(ctx, await describeUpsert(ctx, decided, at));
      return decided.results;
    } catch (err) {
      if (!guardFailed(err) && !isUniqueViolation(err)) throw err;
    }
  }
  const out: PersonUpsertResult[] = [];
  for (const item of items) {
    try {
      const p =
        item.targetId !== null
          ? await updatePerson(ctx, item.targetId, item.input)
          : await createPerson(ctx, item.input);
      out.push({ key: item.key, outcome: item.targetId ? "updated" : "created", id: p.id });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      out.push({ key: item.key, error: err });
    }
  }
  return out;
}
