import { and, eq, isNull, sql } from "drizzle-orm";
import type { Principal } from "../../access/principal";
import { licenceReviewItems, licenceReviews, licenceSeats } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import type { TenantDb } from "../../env";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson, insertJsonRows } from "../../platform/d1-write";
import { ApiError, conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { presentSeats } from "./holders";
import { requireProduct } from "./products";
import { closeSeatsWrite } from "./seats";

type ReviewRow = typeof licenceReviews.$inferSelect;
type ItemRow = typeof licenceReviewItems.$inferSelect;

const toReview = (r: ReviewRow, items: readonly ItemRow[]) => ({
  id: r.id,
  productId: r.productId,
  dueDate: r.dueDate,
  status: r.status,
  createdAt: r.createdAt,
  items: items.map((i) => ({
    seatId: i.seatId,
    holder: { kind: i.holderKind, id: i.holderId },
    reviewerPersonId: i.reviewerPersonId,
    outcome: i.outcome,
    decidedAt: i.decidedAt,
    decidedBy: i.decidedBy,
  })),
});

export async function getReview(db: TenantDb, id: string, onlyUnreviewed = false) {
  const r = await db.select().from(licenceReviews).where(eq(licenceReviews.id, id)).get();
  if (!r) throw notFound("Access review");
  const items = await db
    .select()
    .from(licenceReviewItems)
    .where(and(eq(licenceReviewItems.reviewId, id), onlyUnreviewed ? isNull(licenceReviewItems.outcome) : undefined))
    .orderBy(licenceReviewItems.seatId)
    .all();
  return toReview(r, items);
}

/**
 * Opens an access review of a product: every open seat becomes an item to keep or revoke before
 * `dueDate`, reviewed by the holder's manager (people.managerId) or, without one, by an admin.
 */
export async function openReview(ctx: ServiceCtx, productId: string, input: { dueDate: string }) {
  const { db } = ctx;
  await requireProduct(db, productId);
  const today = nowIso().slice(0, 10);
  if (input.dueDate < today) throw invalidField("body.dueDate", "must not be in the past");
  const seats = await db
    .select({ seat: licenceSeats, managerId: people.managerId })
    .from(licenceSeats)
    .leftJoin(people, and(eq(licenceSeats.holderKind, "person"), eq(people.id, licenceSeats.holderId)))
    .where(and(eq(licenceSeats.productId, productId), isNull(licenceSeats.unassignedAt)))
    .orderBy(licenceSeats.id)
    .all();
  const at = nowIso();
  const row: ReviewRow = {
    id: newId("licenceReview"),
    productId,
    dueDate: input.dueDate,
    status: "open",
    createdAt: at,
    createdBy: ctx.actor,
    closedAt: null,
  };
  const items: ItemRow[] = seats.map(({ seat, managerId }) => ({
    reviewId: row.id,
    seatId: seat.id,
    holderKind: seat.holderKind,
    holderId: seat.holderId,
    reviewerPersonId: managerId ?? null,
    outcome: null,
    decidedAt: null,
    decidedBy: null,
  }));
  const review = toReview(row, items);
  await commitWrite(ctx, {
    writes: [
      db.insert(licenceReviews).values(row),
      ...(items.length ? [insertJsonRows(db, licenceReviewItems, items)] : []),
    ],
    events: [{ type: "licence_review.opened", subjectId: row.id, payload: review }],
  });
  return review;
}

/** Whether the caller may decide an item: an admin (or an API key), or the user whose email is the reviewer's. */
async function mayDecide(db: TenantDb, principal: Principal, items: readonly ItemRow[]) {
  if (principal.kind !== "user" || principal.role === "owner" || principal.role === "admin") return;
  const reviewers = [...new Set(items.map((i) => i.reviewerPersonId).filter((p): p is string => !!p))];
  const mine = reviewers.length
    ? await db
        .select({ id: people.id })
        .from(people)
        .where(and(inJson(people.id, reviewers), sql`lower(${people.email}) = lower(${principal.email})`))
        .all()
    : [];
  const own = new Set(mine.map((m) => m.id));
  const refused = items.filter((i) => !i.reviewerPersonId || !own.has(i.reviewerPersonId));
  if (refused.length)
    throw new ApiError(
      "forbidden",
      `Only an admin or the holder's manager may decide: ${refused.map((i) => i.seatId).join(", ")}`,
    );
}

/**
 * Records keep/revoke decisions before the due date; a revoke frees the seat in the same batch
 * (licence_seat.unassigned with reason review_revoked). The review closes when nothing is left.
 */
export async function decide(
  ctx: ServiceCtx,
  principal: Principal,
  id: string,
  decisions: { seatId: string; outcome: "keep" | "revoke" }[],
) {
  const { db } = ctx;
  const review = await db.select().from(licenceReviews).where(eq(licenceReviews.id, id)).get();
  if (!review) throw notFound("Access review");
  const today = nowIso().slice(0, 10);
  if (review.status !== "open" || today > review.dueDate)
    throw conflict(`The review is closed (due ${review.dueDate}); open a new one`);
  const items = await db
    .select()
    .from(licenceReviewItems)
    .where(
      and(
        eq(licenceReviewItems.reviewId, id),
        inJson(
          licenceReviewItems.seatId,
          decisions.map((d) => d.seatId),
        ),
      ),
    )
    .all();
  const missing = decisions.filter((d) => !items.some((i) => i.seatId === d.seatId));
  if (missing.length)
    throw invalidField("body.decisions", `seats not in this review: ${missing.map((m) => m.seatId).join(", ")}`);
  const decided = items.filter((i) => i.outcome);
  if (decided.length) throw conflict(`Already decided: ${decided.map((i) => i.seatId).join(", ")}`);
  await mayDecide(db, principal, items);
  const at = nowIso();
  const next = items.map((i) => ({
    ...i,
    outcome: decisions.find((d) => d.seatId === i.seatId)!.outcome,
    decidedAt: at,
    decidedBy: ctx.actor,
  }));
  const revokeIds = next.filter((n) => n.outcome === "revoke").map((n) => n.seatId);
  const revokeRows = revokeIds.length
    ? await db
        .select()
        .from(licenceSeats)
        .where(and(inJson(licenceSeats.id, revokeIds), isNull(licenceSeats.unassignedAt)))
        .all()
    : [];
  const left = (
    await db
      .select({ n: sql<number>`count(*)` })
      .from(licenceReviewItems)
      .where(and(eq(licenceReviewItems.reviewId, id), isNull(licenceReviewItems.outcome)))
      .get()
  )?.n;
  const closes = left === next.length;
  const snapshot = JSON.stringify(next.map((n) => [n.reviewId, n.seatId]));
  const write = joinWrites(
    {
      guards: [
        batchGuard(
          db,
          "review_items_open",
          sql`(SELECT count(*) FROM ${licenceReviewItems} JOIN json_each(${snapshot}) j ON ${licenceReviewItems.reviewId} = j.value ->> '$[0]' AND ${licenceReviewItems.seatId} = j.value ->> '$[1]' WHERE ${licenceReviewItems.outcome} IS NULL) = ${next.length}`,
        ),
      ],
      writes: [
        ...next.map((n) =>
          db
            .update(licenceReviewItems)
            .set({ outcome: n.outcome, decidedAt: at, decidedBy: ctx.actor })
            .where(and(eq(licenceReviewItems.reviewId, id), eq(licenceReviewItems.seatId, n.seatId))),
        ),
        ...(closes
          ? [db.update(licenceReviews).set({ status: "closed", closedAt: at }).where(eq(licenceReviews.id, id))]
          : []),
      ],
      audits: next.map((n) => ({
        entityType: "licence_review",
        entityId: id,
        action: "decide",
        actor: ctx.actor,
        at,
        after: { seatId: n.seatId, outcome: n.outcome },
      })),
    },
    revokeRows.length
      ? closeSeatsWrite(
          ctx,
          revokeRows,
          await presentSeats(db, revokeRows),
          "review_revoked",
          "licence_seat.unassigned",
          at,
          {
            reviewId: id,
          },
        )
      : null,
  );
  const out = await getReviewAfter(db, id, next, closes, at);
  write.events = [...(write.events ?? []), { type: "licence_review.decided", subjectId: id, payload: out }];
  await commitWrite(ctx, write, (err) => {
    if (guardFailed(err, "review_items_open") || guardFailed(err, "licence_seats_open"))
      throw conflict("The review or a seat changed meanwhile; retry");
    throw err;
  });
  return out;
}

async function getReviewAfter(db: TenantDb, id: string, next: ItemRow[], closes: boolean, at: string) {
  const r = await getReview(db, id);
  return {
    ...r,
    status: closes ? ("closed" as const) : r.status,
    items: r.items.map((i) => {
      const n = next.find((x) => x.seatId === i.seatId);
      return n ? { ...i, outcome: n.outcome, decidedAt: at, decidedBy: n.decidedBy } : i;
    }),
  };
}
