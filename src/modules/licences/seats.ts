import { and, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { licenceLots, licenceProducts, licenceSeats } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import { requireActivePerson, requireAsset } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { commitWrite, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuards, guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncClauses, syncPage } from "../../platform/sync";
import { presentSeats, recountLots } from "./holders";
import { requireLot } from "./lots";
import type { Seat } from "./schemas";
import { type LotRow, type SeatRow, seatCost } from "./view";

/** Which holders a lot's kind takes. */
export const TAKES: Record<LotRow["kind"], readonly ("person" | "asset")[]> = {
  per_user: ["person"],
  concurrent: ["person"],
  per_device: ["asset"],
  site: ["person", "asset"],
  unlimited: ["person", "asset"],
};

/** The 409 of a full lot: how many it has, and where this product still has free seats. */
async function noFreeSeat(db: TenantDb, lotId: string) {
  const lot = await requireLot(db, lotId);
  const others = await db
    .select({
      id: licenceLots.id,
      kind: licenceLots.kind,
      seats: licenceLots.seats,
      assigned: licenceLots.assignedCount,
    })
    .from(licenceLots)
    .where(
      and(
        eq(licenceLots.productId, lot.productId),
        isNull(licenceLots.deletedAt),
        sql`${licenceLots.id} <> ${lotId}`,
        sql`(${licenceLots.seats} IS NULL OR ${licenceLots.assignedCount} < ${licenceLots.seats})`,
      ),
    )
    .orderBy(licenceLots.id)
    .limit(20)
    .all();
  const free = others.map((o) => ({ lotId: o.id, kind: o.kind, free: o.seats === null ? null : o.seats - o.assigned }));
  const where = free.length
    ? `free seats of this product: ${free.map((f) => `${f.lotId} (${f.free ?? "unlimited"} ${f.kind})`).join(", ")}`
    : "no other lot of this product has a free seat";
  return conflict(`No free seat in lot ${lotId}: ${lot.assignedCount} of ${lot.seats} assigned; ${where}`, {
    lotId,
    seats: lot.seats,
    assigned: lot.assignedCount,
    freeElsewhere: free,
  });
}

/**
 * Gives a seat of a lot to a person or an asset. A lot never goes over its seat count: the batch is
 * guarded on the count of open seats, so of two requests for the last seat exactly one wins and the
 * other gets the 409 that names the free seats left elsewhere.
 */
export async function assignSeat(ctx: ServiceCtx, lotId: string, input: { personId?: string; assetId?: string }) {
  const { db } = ctx;
  const lot = await requireLot(db, lotId);
  const holderKind = input.personId ? "person" : "asset";
  const holderId = (input.personId ?? input.assetId)!;
  if (!TAKES[lot.kind].includes(holderKind))
    throw invalidField(
      holderKind === "person" ? "body.personId" : "body.assetId",
      `a ${lot.kind} lot's seats go to ${TAKES[lot.kind].join(" or ")}s`,
    );
  if (holderKind === "person") await requireActivePerson(db, holderId);
  else {
    const asset = await requireAsset(db, holderId, "body.assetId");
    if (asset.status === "retired") throw conflict("The asset is retired; it cannot take a seat");
  }
  const held = await db
    .select({ id: licenceSeats.id })
    .from(licenceSeats)
    .where(
      and(
        eq(licenceSeats.lotId, lotId),
        eq(licenceSeats.holderKind, holderKind),
        eq(licenceSeats.holderId, holderId),
        isNull(licenceSeats.unassignedAt),
      ),
    )
    .get();
  if (held) throw conflict(`The ${holderKind} already holds seat ${held.id} of this lot`);
  if (lot.seats !== null && lot.assignedCount >= lot.seats) throw await noFreeSeat(db, lotId);
  const at = nowIso();
  const row: SeatRow = {
    id: newId("licenceSeat"),
    lotId,
    productId: lot.productId,
    holderKind,
    holderId,
    assignedAt: at,
    assignedBy: ctx.actor,
    unassignedAt: null,
    unassignedBy: null,
    unassignReason: null,
    lastUsedAt: null,
    costMinor: seatCost(lot),
    updatedAt: at,
  };
  const [seat] = await presentSeats(db, [row]);
  const holderLive =
    holderKind === "person"
      ? sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${holderId} AND ${people.deletedAt} IS NULL AND ${people.status} = 'active')`
      : sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${holderId} AND ${assets.deletedAt} IS NULL AND ${assets.status} <> 'retired')`;
  await commitWrite(
    ctx,
    {
      guards: [
        batchGuards(db, [
          {
            name: "licence_lot_live",
            holds: sql`EXISTS (SELECT 1 FROM ${licenceLots} WHERE ${licenceLots.id} = ${lotId} AND ${licenceLots.deletedAt} IS NULL)`,
          },
          {
            name: "licence_seat_free",
            holds: sql`(SELECT ${licenceLots.seats} IS NULL OR (SELECT count(*) FROM ${licenceSeats} WHERE ${licenceSeats.lotId} = ${lotId} AND ${licenceSeats.unassignedAt} IS NULL) < ${licenceLots.seats} FROM ${licenceLots} WHERE ${licenceLots.id} = ${lotId})`,
          },
          { name: "licence_holder_live", holds: holderLive },
        ]),
      ],
      writes: [db.insert(licenceSeats).values(row), recountLots(db, [lotId])],
      audits: [{ entityType: "licence_seat", entityId: row.id, action: "assign", actor: ctx.actor, at, after: row }],
      events: [{ type: "licence_seat.assigned", subjectId: row.id, payload: seat! }],
    },
    async (err) => {
      if (guardFailed(err, "licence_seat_free")) throw await noFreeSeat(db, lotId);
      if (guardFailed(err, "licence_lot_live")) throw notFound("Licence lot");
      if (guardFailed(err, "licence_holder_live"))
        throw conflict(`The ${holderKind} was deactivated, retired or deleted meanwhile`);
      if (isUniqueViolation(err)) throw conflict(`The ${holderKind} already holds a seat of this lot`);
      throw err;
    },
  );
  return seat!;
}

/** A live person or asset whose seats are read, or 404. */
export async function requireHolder(db: TenantDb, kind: "person" | "asset", id: string) {
  const table = kind === "person" ? people : assets;
  const row = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), isNull(table.deletedAt)))
    .get();
  if (!row) throw notFound(kind === "person" ? "Person" : "Inventory item");
}

export async function requireSeat(db: TenantDb, id: string): Promise<SeatRow> {
  const row = await db.select().from(licenceSeats).where(eq(licenceSeats.id, id)).get();
  if (!row) throw notFound("Licence seat");
  return row;
}

/**
 * The write that closes open seats (`reason`: unassigned, reclaimed, review_revoked, ...): each
 * seat closes only if still open, the lots are recounted, and one event per seat of `eventType`.
 * Guarded on the seats being open, so a concurrent unassign makes it a 409, never a double event.
 */
export function closeSeatsWrite(
  ctx: ServiceCtx,
  rows: readonly SeatRow[],
  seats: readonly Seat[],
  reason: string,
  eventType: string,
  at: string,
  extra: Record<string, unknown> = {},
): Write {
  const { db } = ctx;
  const ids = rows.map((r) => r.id);
  return {
    guards: [
      batchGuards(db, [
        {
          name: "licence_seats_open",
          holds: sql`(SELECT count(*) FROM ${licenceSeats} WHERE ${inJson(licenceSeats.id, ids)} AND ${licenceSeats.unassignedAt} IS NULL) = ${ids.length}`,
        },
      ]),
    ],
    writes: [
      db
        .update(licenceSeats)
        .set({ unassignedAt: at, unassignedBy: ctx.actor, unassignReason: reason, updatedAt: at })
        .where(and(inJson(licenceSeats.id, ids), isNull(licenceSeats.unassignedAt))),
      recountLots(
        db,
        rows.map((r) => r.lotId),
      ),
    ],
    audits: rows.map((r) => ({
      entityType: "licence_seat",
      entityId: r.id,
      action: reason,
      actor: ctx.actor,
      at,
      before: { unassignedAt: null },
      after: { unassignedAt: at, unassignReason: reason },
    })),
    events: seats.map((s) => ({
      type: eventType,
      subjectId: s.id,
      payload: { ...s, unassignedAt: at, unassignedBy: ctx.actor, unassignReason: reason, updatedAt: at, ...extra },
    })),
  };
}

const seatsRaced = (err: unknown) => {
  if (guardFailed(err, "licence_seats_open")) throw conflict("A seat was unassigned meanwhile; retry");
  throw err;
};

export async function unassignSeat(ctx: ServiceCtx, seatId: string): Promise<Seat> {
  const row = await requireSeat(ctx.db, seatId);
  if (row.unassignedAt) throw conflict(`The seat was already unassigned at ${row.unassignedAt}`);
  const [seat] = await presentSeats(ctx.db, [row]);
  const at = nowIso();
  await commitWrite(ctx, closeSeatsWrite(ctx, [row], [seat!], "unassigned", "licence_seat.unassigned", at), seatsRaced);
  return { ...seat!, unassignedAt: at, unassignedBy: ctx.actor, unassignReason: "unassigned", updatedAt: at };
}

/**
 * The seats a person's deactivation or an asset's retirement releases: open seats of products set
 * to `release` (the default; `hold` keeps them). A Write the person's or asset's own write joins,
 * so the seats go in the same batch (licence_seat.released per seat), or not at all.
 */
export async function releaseSeatsOf(
  ctx: ServiceCtx,
  holderKind: "person" | "asset",
  holderIds: readonly string[],
  reason: "person_deactivated" | "asset_retired",
): Promise<Write> {
  if (!holderIds.length) return {};
  const rows = await ctx.db
    .select({ seat: licenceSeats })
    .from(licenceSeats)
    .innerJoin(licenceProducts, eq(licenceProducts.id, licenceSeats.productId))
    .where(
      and(
        eq(licenceSeats.holderKind, holderKind),
        inJson(licenceSeats.holderId, holderIds),
        isNull(licenceSeats.unassignedAt),
        eq(licenceProducts.onHolderLeaves, "release"),
      ),
    )
    .all();
  if (!rows.length) return {};
  const seatRows = rows.map((r) => r.seat);
  const at = nowIso();
  return joinWrites(
    closeSeatsWrite(ctx, seatRows, await presentSeats(ctx.db, seatRows), reason, "licence_seat.released", at),
  );
}

export const isSeatRace = (err: unknown) => guardFailed(err, "licence_seats_open");

/** Seats of a lot, a person or an asset: open ones by id, or with history every one, newest first. */
export async function listSeats(
  db: TenantDb,
  by: { lotId?: string; holderKind?: "person" | "asset"; holderId?: string },
  q: { limit: number; cursor?: string; includeHistory?: "true" | "false"; updatedSince?: string },
) {
  const scope = and(
    by.lotId ? eq(licenceSeats.lotId, by.lotId) : undefined,
    by.holderKind ? eq(licenceSeats.holderKind, by.holderKind) : undefined,
    by.holderId ? eq(licenceSeats.holderId, by.holderId) : undefined,
  );
  if (q.updatedSince) {
    // Sync: every seat changed since, closed ones included (their `unassignedAt` is the tombstone).
    const s = syncClauses(licenceSeats, { updatedSince: q.updatedSince, cursor: q.cursor }, scope);
    const rows = await db
      .select()
      .from(licenceSeats)
      .where(s.where)
      .orderBy(...s.orderBy)
      .limit(q.limit + 1)
      .all();
    const cut = syncPage(rows, q.limit, (r) => r);
    return { items: await presentSeats(db, cut.items), nextCursor: cut.nextCursor };
  }
  const history = q.includeHistory === "true";
  const page = keyset(q, { by: [licenceSeats.id], desc: history });
  const rows = await db
    .select()
    .from(licenceSeats)
    .where(and(scope, history ? undefined : isNull(licenceSeats.unassignedAt), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const cut = page.of(
    rows,
    (r) => [r.id],
    (r) => r,
  );
  return { items: await presentSeats(db, cut.items), nextCursor: cut.nextCursor };
}
