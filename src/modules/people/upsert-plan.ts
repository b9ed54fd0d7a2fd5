import { and, sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { allLive, liveIds, refError } from "../../domain/catalog";
import type { AuditChange } from "../../events/audit";
import type { NewEvent } from "../../events/outbox";
import { joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { batchGuard, inJson, insertJsonRows, updateJsonRows } from "../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { checkinAllForPeople, compileAssetWrite } from "../assets";
import { customFieldValuesWith, liveDefinitions } from "../custom-fields";
import { releaseSeatsOf } from "../licences";
import { returnAllForPeople, strandedStock } from "../stock";
import { AUDITED_FIELDS, newPersonRow, nextPersonRow, personCreated, personUpdated, samePerson } from "./changes";
import type { CreatePersonInput, UpdatePersonInput } from "./schemas";
import { emailTaken, live } from "./service";
import { DEACTIVATION_REASON } from "./update";
import { type PersonRow, toPerson } from "./view";

/**
 * The set-based people upsert in three steps, as the asset one: read what the items name (a fixed
 * number of reads), decide each item (pure: its outcome or the single route's error), describe the
 * change as one write of the house recipe. `upsertPeople` commits it.
 */

/** One person to write: a create (`targetId` null) or an update of the live person `targetId`. */
export type PersonUpsert =
  | { key: number; targetId: null; input: CreatePersonInput }
  | { key: number; targetId: string; input: UpdatePersonInput };

export type PersonUpsertResult =
  | { key: number; outcome: "created" | "updated"; id: string }
  | { key: number; error: ApiError };

/** An update writes every audited field's next value (from the guarded snapshot) and the stamp. */
const UPDATED_COLUMNS = [...AUDITED_FIELDS, "updatedAt"] as const;

export type UpsertSnapshot = Awaited<ReturnType<typeof readUpsert>>;

/** The targets, the person custom fields, the live locations named and the emails taken. */
export async function readUpsert({ db }: ServiceCtx, items: readonly PersonUpsert[]) {
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
  return {
    byId: new Map(current.map((r) => [r.id, r])),
    defs,
    liveLocation: liveLocations,
    takenEmails: new Set(taken.map((t) => t.email)),
  };
}

export interface UpsertDecision {
  results: PersonUpsertResult[];
  created: PersonRow[];
  updated: { cur: PersonRow; next: PersonRow }[];
  defs: UpsertSnapshot["defs"];
}

/** Each item's outcome, or the error the single route would have answered; the rows to write. */
export function decideUpsert(items: readonly PersonUpsert[], snap: UpsertSnapshot, at: string): UpsertDecision {
  const { byId, defs, liveLocation } = snap;
  const takenEmails = new Set(snap.takenEmails);
  const checkLocation = (id: string | null | undefined) => {
    if (id && !liveLocation.has(id)) throw refError("location", "body.locationId", id, "unknown");
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
  return { results, created, updated, defs };
}

const deactivatingIn = (d: UpsertDecision) =>
  d.updated.filter((u) => u.next.status === "deactivated" && u.cur.status !== "deactivated");

/**
 * Stock that cannot go back (issued from a since deleted location) refuses that person's row alone,
 * as the single route refuses the deactivation: the row's result becomes the refusal and its update
 * is dropped from the write.
 */
export async function refuseStranded(ctx: ServiceCtx, d: UpsertDecision): Promise<UpsertDecision> {
  const stranded = await strandedStock(
    ctx.db,
    deactivatingIn(d).map((u) => u.cur.id),
  );
  if (!stranded.size) return d;
  return {
    ...d,
    updated: d.updated.filter((u) => !stranded.has(u.cur.id)),
    results: d.results.map((r) => {
      const refusal = "id" in r ? stranded.get(r.id) : undefined;
      return refusal ? { key: r.key, error: refusal } : r;
    }),
  };
}

/**
 * The write of the decided rows: guarded on the snapshot (the targets' `updatedAt`, the locations
 * live); a deactivation checks the person's assets in and returns their stock, as the single route.
 */
export async function describeUpsert(ctx: ServiceCtx, d: UpsertDecision, at: string): Promise<Write> {
  const { db, actor } = ctx;
  const { created, updated, defs } = d;
  const deactivating = deactivatingIn(d);
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
  const seatsBack = deactivating.length
    ? await releaseSeatsOf(
        ctx,
        "person",
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
    const c = personCreated(row, toPerson(row, defs), actor, at);
    events.push(...c.events);
    audits.push(c.audit);
  }
  for (const { cur, next } of updated) {
    const c = personUpdated(cur, next, toPerson(next, defs), actor, at, heldBy.get(cur.id) ?? []);
    events.push(...c.events);
    audits.push(c.audit);
  }
  // As the single routes: a create's location, and an update's when it changes, must be live.
  const named = [...created, ...updated.filter((u) => u.next.locationId !== u.cur.locationId).map((u) => u.next)];
  const usedLocations = [...new Set(named.flatMap((r) => (r.locationId ? [r.locationId] : [])))];
  const snapshot = JSON.stringify(updated.map((u) => [u.cur.id, u.cur.updatedAt]));
  return joinWrites(
    {
      guards: [
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
      ],
    },
    checkin ? compileAssetWrite(ctx, checkin) : null,
    stockBack?.write,
    seatsBack,
    {
      writes: [
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
      ],
      audits,
      events,
    },
  );
}
