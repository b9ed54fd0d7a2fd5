import { and, eq, sql } from "drizzle-orm";
import { bookingItems, bookings } from "../../db/tenant/bookings";
import { people } from "../../db/tenant/people";
import { requireActivePerson } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { chunk } from "../../platform/d1";
import { type BatchRider, batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { bookableSql, checkWindow, refuseConflicts, type Window } from "./conflicts";
import { type Booking, type BookingRow, toBooking } from "./view";

/** 6 columns per item row: 16 rows keep one INSERT under D1's 100 bound parameters. */
const ITEMS_PER_INSERT = 16;
const AUDITED = ["status", "startsAt", "endsAt", "notes", "personId", "assetIds"] as const;
const iso = (s: string) => new Date(s).toISOString();

export async function requireBooking(db: TenantDb, id: string): Promise<BookingRow> {
  const row = await db.select().from(bookings).where(eq(bookings.id, id)).get();
  if (!row) throw notFound("Booking");
  return row;
}

export async function itemsOf(db: TenantDb, id: string) {
  return db
    .select({ assetId: bookingItems.assetId, returnedAt: bookingItems.returnedAt })
    .from(bookingItems)
    .where(eq(bookingItems.bookingId, id))
    .orderBy(bookingItems.assetId)
    .all();
}

export async function getBooking(db: TenantDb, id: string): Promise<Booking> {
  return toBooking(await requireBooking(db, id), await itemsOf(db, id), nowIso());
}

const personActive = (personId: string) =>
  sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)`;

/** What records a booking change in the write recipe: its audit rows and the `booking.*` outbox event. */
export function bookingRecord(ctx: ServiceCtx, type: string, before: Booking | null, after: Booking, at: string) {
  return {
    audits: [
      {
        entityType: "booking",
        entityId: after.id,
        action: type.replace("booking.", ""),
        actor: ctx.actor,
        at,
        before,
        after,
        fields: AUDITED,
      },
    ],
    events: [{ type, subjectId: after.id, payload: after }],
  } satisfies Write;
}

export async function createBooking(
  ctx: ServiceCtx,
  input: {
    /** Chosen by a caller that records the id in the same batch (a request's approval). */
    id?: string;
    personId: string;
    assetIds: string[];
    kitId?: string | null;
    startsAt: string;
    endsAt: string;
    notes?: string | null;
  },
  rider?: BatchRider,
): Promise<Booking> {
  const { db } = ctx;
  const now = nowIso();
  const w: Window = { startsAt: iso(input.startsAt), endsAt: iso(input.endsAt) };
  checkWindow(w, now);
  await requireActivePerson(db, input.personId);
  await refuseConflicts(db, input.assetIds, w, null, now);
  const row: BookingRow = {
    id: input.id ?? newId("booking"),
    personId: input.personId,
    kitId: input.kitId ?? null,
    status: "reserved",
    ...w,
    notes: input.notes?.trim() || null,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
    pickedUpAt: null,
    returnedAt: null,
    cancelledAt: null,
    revision: 0,
  };
  const items = input.assetIds.map((assetId) => ({ bookingId: row.id, assetId, ...w, active: 1, returnedAt: null }));
  const after = toBooking(row, items, now);
  const write: Write = {
    guards: [
      batchGuard(
        db,
        "booking_conflict",
        sql`${bookableSql(input.assetIds, w, null, now)} AND ${personActive(input.personId)}`,
      ),
      ...(rider?.guards ?? []),
    ],
    writes: [
      db.insert(bookings).values(row),
      ...chunk(items, ITEMS_PER_INSERT).map((part) => db.insert(bookingItems).values(part)),
      ...(rider?.writes ?? []),
    ],
    ...bookingRecord(ctx, "booking.created", null, after, now),
  };
  await commitWrite(ctx, write, async (err) => {
    if (!guardFailed(err, "booking_conflict")) throw err;
    // Lost a race: name what won it.
    await refuseConflicts(db, input.assetIds, w, null, now);
    throw conflict("The items or the person changed meanwhile; retry");
  });
  return after;
}

/** Moves (new window) or re-notes a reserved booking; the conflict rules run again against the new window. */
export async function updateBooking(
  ctx: ServiceCtx,
  id: string,
  input: { startsAt?: string; endsAt?: string; notes?: string | null },
): Promise<Booking> {
  const { db } = ctx;
  const now = nowIso();
  const row = await requireBooking(db, id);
  const items = await itemsOf(db, id);
  const before = toBooking(row, items, now);
  const moves = input.startsAt !== undefined || input.endsAt !== undefined;
  if (row.status !== "reserved" && moves)
    throw conflict(`A ${before.status} booking cannot be moved`, { status: before.status });
  if (row.status === "cancelled" || row.status === "returned")
    throw conflict(`A ${row.status} booking cannot be changed`, { status: row.status });
  const w: Window = {
    startsAt: input.startsAt ? iso(input.startsAt) : row.startsAt,
    endsAt: input.endsAt ? iso(input.endsAt) : row.endsAt,
  };
  const ids = items.map((i) => i.assetId);
  if (moves) {
    checkWindow(w, now);
    await refuseConflicts(db, ids, w, id, now);
  }
  const next: BookingRow = {
    ...row,
    ...w,
    notes: input.notes === undefined ? row.notes : input.notes?.trim() || null,
    updatedAt: now,
  };
  const after = toBooking(next, items, now);
  const unchanged = and(eq(bookings.id, id), eq(bookings.status, row.status), eq(bookings.updatedAt, row.updatedAt));
  const write: Write = {
    guards: [
      batchGuard(
        db,
        "booking_conflict",
        sql`EXISTS (SELECT 1 FROM ${bookings} WHERE ${unchanged}) AND ${moves ? bookableSql(ids, w, id, now) : sql`1 = 1`}`,
      ),
    ],
    writes: [
      db
        .update(bookings)
        .set({ startsAt: w.startsAt, endsAt: w.endsAt, notes: next.notes, updatedAt: now })
        .where(unchanged),
      db.update(bookingItems).set(w).where(eq(bookingItems.bookingId, id)),
    ],
    ...bookingRecord(ctx, "booking.updated", before, after, now),
  };
  await commitWrite(ctx, write, async (err) => {
    if (!guardFailed(err, "booking_conflict")) throw err;
    if (moves) await refuseConflicts(db, ids, w, id, now);
    throw conflict("The booking changed meanwhile; retry");
  });
  return after;
}

/** Cancels a reserved booking: its items stop holding the assets. */
export async function cancelBooking(ctx: ServiceCtx, id: string): Promise<Booking> {
  const { db } = ctx;
  const now = nowIso();
  const row = await requireBooking(db, id);
  const items = await itemsOf(db, id);
  const before = toBooking(row, items, now);
  if (row.status !== "reserved")
    throw conflict(`Only a reserved booking can be cancelled (this one is ${before.status}); return it instead`, {
      status: before.status,
    });
  const after = toBooking({ ...row, status: "cancelled", cancelledAt: now, updatedAt: now }, items, now);
  const reserved = and(eq(bookings.id, id), eq(bookings.status, "reserved"));
  const write: Write = {
    guards: [batchGuard(db, "booking_state", sql`EXISTS (SELECT 1 FROM ${bookings} WHERE ${reserved})`)],
    writes: [
      db.update(bookings).set({ status: "cancelled", cancelledAt: now, updatedAt: now }).where(reserved),
      db.update(bookingItems).set({ active: 0 }).where(eq(bookingItems.bookingId, id)),
    ],
    ...bookingRecord(ctx, "booking.cancelled", before, after, now),
  };
  await commitWrite(ctx, write, (err) => {
    if (!guardFailed(err, "booking_state")) throw err;
    throw conflict("The booking changed meanwhile (picked up or cancelled)");
  });
  return after;
}
