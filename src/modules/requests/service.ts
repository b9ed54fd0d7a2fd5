import { and, eq, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { kitMembers, kits } from "../../db/tenant/kits";
import { people } from "../../db/tenant/people";
import { requests } from "../../db/tenant/requests";
import type { Role } from "../../db/tenant/users";
import type { Bindings } from "../../env";
import { commitWrite, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { ApiError, conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { activeManagers } from "../users";
import { notificationRows, stepWrite } from "./notify";
import type { Request } from "./schemas";
import { requireRequestableStock } from "./stock";
import { type RequestRow, toRequest } from "./view";

/** The signed-in user acting on requests (JWT only: a request is a person's). */
export interface Caller {
  userId: string;
  email: string;
  role: Role;
}

export type RequestsCtx = ServiceCtx & { caller: Caller; env: Pick<Bindings, "USER_REALTIME" | "NOTIFICATIONS"> };

/** The live, active person with the caller's email: who will hold what is approved. */
async function requesterPerson(ctx: RequestsCtx) {
  const person = await ctx.db
    .select()
    .from(people)
    .where(and(sql`lower(${people.email}) = ${ctx.caller.email.toLowerCase()}`, isNull(people.deletedAt)))
    .get();
  if (!person)
    throw conflict("No person in this workspace has your email; ask an admin to add you to People first", {
      reason: "no_person",
    });
  if (person.status !== "active")
    throw conflict(`Your person record is ${person.status}`, { reason: "person_inactive" });
  return person;
}

export interface CreateRequestInput {
  assetId?: string;
  kitId?: string;
  stockItemId?: string;
  quantity?: number;
  locationId?: string;
  startsAt?: string;
  endsAt?: string;
  dueBackAt?: string;
  note?: string;
}

/** What is asked for: a live asset or kit, for the self-service role requestable (every kit item so); a requestable stock item. */
async function requireSubject(ctx: RequestsCtx, input: CreateRequestInput) {
  const selfService = ctx.caller.role === "requester";
  if (input.stockItemId)
    return requireRequestableStock(ctx.db, { stockItemId: input.stockItemId, locationId: input.locationId });
  if (input.assetId) {
    const a = await ctx.db
      .select({ id: assets.id, requestable: assets.requestable })
      .from(assets)
      .where(and(eq(assets.id, input.assetId), isNull(assets.deletedAt)))
      .get();
    if (!a || (selfService && !a.requestable))
      throw invalidField("body.assetId", `unknown or not requestable inventory item '${input.assetId}'`);
    return;
  }
  const kitId = input.kitId!;
  // Two plain reads: a correlated subquery in a one-table select would name kits.id unqualified,
  // and inside a join with assets that "id" is the asset's.
  const [kit, members] = await Promise.all([
    ctx.db
      .select({ id: kits.id })
      .from(kits)
      .where(and(eq(kits.id, kitId), isNull(kits.deletedAt)))
      .get(),
    ctx.db
      .select({ id: assets.id, requestable: assets.requestable })
      .from(kitMembers)
      .innerJoin(assets, eq(assets.id, kitMembers.assetId))
      .where(eq(kitMembers.kitId, kitId))
      .orderBy(assets.id)
      .all(),
  ]);
  if (!kit) throw invalidField("body.kitId", `unknown or not requestable kit '${kitId}'`);
  const closed = members.filter((m) => !m.requestable).map((m) => m.id);
  if (selfService && closed.length > 0)
    throw invalidField(
      "body.kitId",
      `not requestable kit '${kitId}': it holds items that are not requestable (${closed.slice(0, 20).join(", ")}${closed.length > 20 ? `, and ${closed.length - 20} more` : ""})`,
    );
  if (members.length === 0) throw conflict("The kit has no items");
}

const iso = (v: string | undefined) => (v ? new Date(v).toISOString() : null);

export async function createRequest(ctx: RequestsCtx, input: CreateRequestInput): Promise<Request> {
  const now = nowIso();
  const [startsAt, endsAt, dueBackAt] = [iso(input.startsAt), iso(input.endsAt), iso(input.dueBackAt)];
  if (startsAt && endsAt && endsAt <= startsAt) throw invalidField("body.endsAt", "must be after startsAt");
  if (endsAt && endsAt <= now) throw invalidField("body.endsAt", "must be in the future");
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  await requireSubject(ctx, input);
  const person = await requesterPerson(ctx);
  const row: RequestRow = {
    id: newId("assetRequest"),
    kind: input.stockItemId ? "issue" : startsAt ? "booking" : "checkout",
    requesterUserId: ctx.caller.userId,
    personId: person.id,
    assetId: input.assetId ?? null,
    kitId: input.kitId ?? null,
    stockItemId: input.stockItemId ?? null,
    quantity: input.quantity ?? null,
    locationId: input.locationId ?? null,
    stockMovementId: null,
    startsAt,
    endsAt,
    dueBackAt,
    note: input.note?.trim() || null,
    status: "open",
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    bookingId: null,
    remindedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const rows = notificationRows("created", row, await activeManagers(ctx.db), now);
  await commitWrite(ctx, joinWrites({ writes: [ctx.db.insert(requests).values(row)] }, stepWrite(ctx, row, rows)));
  return toRequest(row);
}

/** A request the caller may see: every request for owners, admins and members; the self-service role its own only (404 otherwise). */
export async function requireRequest(ctx: RequestsCtx, id: string): Promise<RequestRow> {
  const row = await ctx.db.select().from(requests).where(eq(requests.id, id)).get();
  if (!row || (ctx.caller.role === "requester" && row.requesterUserId !== ctx.caller.userId)) throw notFound("Request");
  return row;
}

export async function listRequests(
  ctx: RequestsCtx,
  q: { limit: number; cursor?: string; status?: RequestRow["status"]; mine?: boolean },
) {
  const page = keyset(q, { by: [requests.id], desc: true });
  const own = q.mine || ctx.caller.role === "requester";
  const rows = await ctx.db
    .select()
    .from(requests)
    .where(
      and(
        own ? eq(requests.requesterUserId, ctx.caller.userId) : undefined,
        q.status ? eq(requests.status, q.status) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toRequest);
}

export const notOpen = (r: RequestRow) =>
  conflict(`The request is ${r.status}; only an open request can be answered or cancelled`, { status: r.status });

/** The one statement that moves an open request on; its guard makes the first answer the only one. */
export const openGuard = (ctx: ServiceCtx, id: string) =>
  batchGuard(
    ctx.db,
    "request_open",
    sql`EXISTS (SELECT 1 FROM ${requests} WHERE ${requests.id} = ${id} AND ${requests.status} = 'open')`,
  );

/** Moves an open request to `next` with the step's event and notifications, in one guarded batch. */
export async function closeRequest(
  ctx: RequestsCtx,
  current: RequestRow,
  next: RequestRow,
  recipients: readonly string[],
): Promise<Request> {
  const rows = notificationRows(next.status as "declined" | "cancelled", next, recipients, next.updatedAt);
  const write = joinWrites(
    {
      guards: [openGuard(ctx, current.id)],
      writes: [
        ctx.db
          .update(requests)
          .set(next)
          .where(and(eq(requests.id, current.id), eq(requests.status, "open"))),
      ],
    },
    stepWrite(ctx, next, rows),
  );
  await commitWrite(ctx, write, async (err) => {
    if (!guardFailed(err, "request_open")) throw err;
    throw notOpen(await requireRequest(ctx, current.id));
  });
  return toRequest(next);
}

/** The requester withdraws their own open request (owners and admins decline instead). */
export async function cancelRequest(ctx: RequestsCtx, id: string): Promise<Request> {
  const current = await requireRequest(ctx, id);
  if (current.requesterUserId !== ctx.caller.userId)
    throw new ApiError("forbidden", "Only the requester can cancel a request; owners and admins decline it");
  if (current.status !== "open") throw notOpen(current);
  const now = nowIso();
  const next: RequestRow = { ...current, status: "cancelled", decidedBy: ctx.actor, decidedAt: now, updatedAt: now };
  return closeRequest(ctx, current, next, await activeManagers(ctx.db));
}
