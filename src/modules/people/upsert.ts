import { and, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { people } from "../../db/tenant/people";
import { auditStatementsMany, type AuditChange } from "../../events/audit";
import { recordEvents, type NewEvent } from "../../events/outbox";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed, inJson, insertJsonRows, updateJsonRows } from "../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { allLive, liveIds, refError } from "../../catalog";
import { newId } from "../../platform/ids";
import { afterAssetWrite, assetWriteStatements, checkinAllForPeople } from "../assets";
import { customFieldValuesWith, liveDefinitions } from "../custom-fields";
import { returnAllForPeople, strandedStock } from "../stock";
import { AUDITED_FIELDS, newPersonRow, nextPersonRow, personCreated, personUpdated, samePerson } from "./changes";
import type { CreatePersonInput, UpdatePersonInput } from "./schemas";
import { createPerson, emailTaken, live } from "./service";
import { DEACTIVATION_REASON, updatePerson } from "./update";
import { toPerson, type PersonRow } from "./view";

/** One person to write: a create (`targetId` null) or an update of the live person `targetId`. */
export type PersonUpsert =
  | { key: number; targetId: null; input: CreatePersonInput }
  | { key: number; targetId: string; input: UpdatePersonInput };

export type PersonUpsertResult =
  | { key: number; outcome: "created" | "updated"; id: string }
  | { key: number; error: ApiError };

/** An update writes every audited field's next value (from the guarded snapshot) and the stamp. */
const UPDATED_COLUMNS = [...AUDITED_FIELDS, "updatedAt"] as const;

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
    const plan = await planUpsert(ctx, items);
    if (!plan.run) return plan.results;
    try {
      await plan.run();
      return plan.results;
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

async function planUpsert(ctx: ServiceCtx, items: readonly PersonUpsert[]) {
  const { db, actor } = ctx;
  const at = nowIso();
  const targetIds = items.flatMap((i) => (i.targetId ? [i.targetId] : []));
  const newEmails = items.flatMap((i) => (!i.targetId && i.input.email ? [i.input.email.toLowerCase()] : []));
  const locationIds = items.flatMap((i) => (i.input.locationId ? [i.input.locationId] : []));
  const [current, defs, liveLocations, taken] = await Promise.all([
    targetIds.length
      ? db
          .select()
          .from(people)
          .where(and(inJson(people.id, targetIds), live))
          .all()
      : [],
    liveDefinitions(db, "person"),
    liveIds(db, "location", locationIds),
    newEmails.length
      ? db
          .select({ email: sql<string>`lower(${people.email})` })
          .from(people)
          .where(and(inJson(sql`lower(${people.email})`, newEmails), live))
          .all()
      : [],
  ]);
  const byId = new Map(current.map((r) => [r.id, r]));
  const takenEmails = new Set(taken.map((t) => t.email));
  const checkLocation = (id: string | null | undefined) => {
    if (id && !liveLocations.has(id)) throw refError("location", "body.locationId", id, "unknown");
  };
  const results: PersonUpsertResult[] = [];
  const created: PersonRow[] = [];
  const updated: { cur: PersonRow; next: PersonRow }[] = [];
  const seen = new Set<string>();

  for (const item of items) {
    try {
      if (item.targetId !== null) {
        const cur = byId.get(item.targetId);
        if (!cur) throw notFound("Person");
        if (seen.has(cur.id)) throw conflict("The same person twice in one write");
        seen.add(cur.id);
        const { input } = item;
        if (input.locationId !== undefined && input.locationId !== cur.locationId) checkLocation(input.locationId);
        const cf =
          input.customFields !== undefined
            ? customFieldValuesWith(defs, input.customFields, cur.customFields)
            : cur.customFields;
        const next = nextPersonRow(cur, input, cf, at);
        if (!samePerson(cur, next)) updated.push({ cur, next });
        results.push({ key: item.key, outcome: "updated", id: cur.id });
      } else {
        const cf = customFieldValuesWith(defs, item.input.customFields);
        checkLocation(item.input.locationId);
        const email = item.input.email?.toLowerCase();
        if (email && takenEmails.has(email)) throw emailTaken(item.input.email);
        if (email) takenEmails.add(email);
        const row = newPersonRow(newId("person"), at, item.input, cf);
        created.push(row);
        results.push({ key: item.key, outcome: "created", id: row.id });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      results.push({ key: item.key, error: err });
    }
  }
  // Stock that cannot go back (its location deleted) refuses that person's row alone.
  const stranded = await strandedStock(
    ctx.db,
    updated.filter((u) => u.next.status === "deactivated" && u.cur.status !== "deactivated").map((u) => u.cur.id),
  );
  if (stranded.size) {
    for (let i = updated.length - 1; i >= 0; i--) if (stranded.has(updated[i]!.cur.id)) updated.splice(i, 1);
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!;
      const refusal = "id" in r ? stranded.get(r.id) : undefined;
      if (refusal) results[i] = { key: r.key, error: refusal };
    }
  }
  if (created.length === 0 && updated.length === 0) return { results, run: null };

  const deactivating = updated.filter((u) => u.next.status === "deactivated" && u.cur.status !== "deactivated");
  const checkin = deactivating.length
    ? await checkinAllForPeople(
        ctx,
        deactivating.map((u) => u.cur.id),
        DEACTIVATION_REASON,
      )
    : null;
  const stockBack = deactivating.length
    ? await returnAllForPeople(
        ctx,
        deactivating.map((u) => u.cur.id),
        DEACTIVATION_REASON,
      )
    : null;
  const heldBy = new Map<string, string[]>();
  for (const c of checkin?.changes ?? []) {
    const personId = String(c.before?.assigneeId ?? "");
    heldBy.set(personId, [...(heldBy.get(personId) ?? []), c.after.id]);
  }
  const events: NewEvent[] = [];
  const audits: AuditChange[] = [];
  for (const row of created) {
    const d = personCreated(row, toPerson(row, defs), actor, at);
    events.push(...d.events);
    audits.push(d.audit);
  }
  for (const { cur, next } of updated) {
    const d = personUpdated(cur, next, toPerson(next, defs), actor, at, heldBy.get(cur.id) ?? []);
    events.push(...d.events);
    audits.push(d.audit);
  }
  // As the single routes: a create's location, and an update's when it changes, must be live.
  const named = [...created, ...updated.filter((u) => u.next.locationId !== u.cur.locationId).map((u) => u.next)];
  const usedLocations = [...new Set(named.flatMap((r) => (r.locationId ? [r.locationId] : [])))];
  const snapshot = JSON.stringify(updated.map((u) => [u.cur.id, u.cur.updatedAt]));
  const statements: BatchItem<"sqlite">[] = [
    ...(updated.length
      ? [
          batchGuard(
            db,
            "people_snapshot",
            sql`(SELECT count(*) FROM ${people} JOIN json_each(${snapshot}) j ON ${people.id} = j.value ->> '$[0]'
              AND ${people.updatedAt} = j.value ->> '$[1]' AND ${people.deletedAt} IS NULL) = ${updated.length}`,
          ),
        ]
      : []),
    ...(usedLocations.length ? [batchGuard(db, "person_location", allLive("location", usedLocations))] : []),
    ...(checkin ? assetWriteStatements(ctx, checkin) : []),
    ...(stockBack?.statements ?? []),
    ...(created.length ? [insertJsonRows(db, people, created)] : []),
    ...(updated.length
      ? [
          updateJsonRows(
            db,
            people,
            "id",
            UPDATED_COLUMNS,
            updated.map((u) => u.next),
          ),
        ]
      : []),
    ...recordEvents(db, events),
    ...auditStatementsMany(db, audits),
  ];
  const run = async () => {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    if (checkin) await afterAssetWrite(ctx, checkin);
  };
  return { results, run };
}
