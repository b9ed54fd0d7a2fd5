import { and, eq, isNull, sql } from "drizzle-orm";
import { licenceSeats } from "../../db/tenant/licences";
import { notifications } from "../../db/tenant/notifications";
import { people } from "../../db/tenant/people";
import { users } from "../../db/tenant/users";
import type { Bindings, TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { inJson, insertJsonRows } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { activeManagers } from "../users";
import { presentSeats } from "./holders";
import { closeSeatsWrite } from "./seats";

const DAY = 86_400_000;

/** Open seats whose last use (or, never used, their assignment) is older than `days`: the costliest first. */
export async function reclaimList(
  db: TenantDb,
  q: { limit: number; cursor?: string; days: number; productId?: string },
) {
  const before = new Date(Date.now() - q.days * DAY).toISOString();
  const page = keyset(q, { by: [licenceSeats.costMinor, licenceSeats.id], desc: true });
  const rows = await db
    .select()
    .from(licenceSeats)
    .where(
      and(
        isNull(licenceSeats.unassignedAt),
        sql`coalesce(${licenceSeats.lastUsedAt}, ${licenceSeats.assignedAt}) < ${before}`,
        q.productId ? eq(licenceSeats.productId, q.productId) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const cut = page.of(
    rows,
    (r) => [r.costMinor, r.id],
    (r) => r,
  );
  return { items: await presentSeats(db, cut.items), nextCursor: cut.nextCursor };
}

/**
 * Frees the given open seats (licence_seat.reclaimed each) and tells, in the app, the workspace's
 * managers and each holder's user (the user with the person's email), in the same batch.
 */
export async function reclaimSeats(ctx: ServiceCtx, env: Bindings, seatIds: string[]) {
  const { db } = ctx;
  const ids = [...new Set(seatIds)];
  const rows = await db.select().from(licenceSeats).where(inJson(licenceSeats.id, ids)).all();
  const unknown = ids.filter((id) => !rows.some((r) => r.id === id));
  if (unknown.length) throw invalidField("body.seatIds", `unknown seats: ${unknown.join(", ")}`);
  const closed = rows.filter((r) => r.unassignedAt);
  if (closed.length) throw conflict(`Seats already unassigned: ${closed.map((r) => r.id).join(", ")}`);
  const seats = await presentSeats(db, rows);
  const personIds = rows.filter((r) => r.holderKind === "person").map((r) => r.holderId);
  const holderUsers = personIds.length
    ? await db
        .select({ personId: people.id, userId: users.id })
        .from(people)
        .innerJoin(users, and(sql`lower(${users.email}) = lower(${people.email})`, eq(users.status, "active")))
        .where(inJson(people.id, personIds))
        .all()
    : [];
  const managers = await activeManagers(db);
  const at = nowIso();
  const notes: NotificationRow[] = [];
  for (const s of seats) {
    const recipients = new Set([
      ...managers,
      ...holderUsers.filter((h) => h.personId === s.holder.id).map((h) => h.userId),
    ]);
    for (const userId of [...recipients].sort())
      notes.push({
        id: newId("notification"),
        userId,
        type: "licence_seat.reclaimed",
        title: `Licence seat reclaimed: ${s.productName ?? s.productId}`,
        message: `The seat of ${s.holder.name ?? s.holder.id} was reclaimed (last used ${s.lastUsedAt ?? "never"}).`,
        data: { seatId: s.id, productId: s.productId, lotId: s.lotId, holder: s.holder },
        readAt: null,
        createdAt: at,
        updatedAt: at,
      });
  }
  const write = closeSeatsWrite(ctx, rows, seats, "reclaimed", "licence_seat.reclaimed", at);
  await commitWrite(
    ctx,
    {
      ...write,
      writes: [...(write.writes ?? []), ...(notes.length ? [insertJsonRows(db, notifications, notes)] : [])],
    },
    (err) => {
      throw String(err).includes("guard:licence_seats_open") ? conflict("A seat was unassigned meanwhile; retry") : err;
    },
  );
  await pushCreated(realtimeSink(env, ctx.tenantId), notes);
  return {
    reclaimed: seats.map((s) => ({
      ...s,
      unassignedAt: at,
      unassignedBy: ctx.actor,
      unassignReason: "reclaimed",
      updatedAt: at,
    })),
    notifiedUserIds: [...new Set(notes.map((n) => n.userId))].sort(),
  };
}
