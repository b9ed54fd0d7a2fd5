import { and, eq, isNull, sql } from "drizzle-orm";
import { licenceKeys, licenceLots, licenceSeats } from "../../db/tenant/licences";
import { isLive, requireLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncClauses, syncPage } from "../../platform/sync";
import { toMinor } from "../assets";
import { requireProduct } from "./products";
import type { Lot } from "./schemas";
import { hasSeatCount, type LotRow, seatCost, toLot } from "./view";

export type LotInput = {
  kind?: LotRow["kind"];
  seats?: number | null;
  cost?: number | null;
  currency?: string | null;
  orderNumber?: string | null;
  supplier?: string | null;
  locationId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  renewal?: LotRow["renewal"];
  renewalYears?: number | null;
  autoRenew?: boolean;
  noticeDays?: number;
};

export async function requireLot(db: TenantDb, id: string): Promise<LotRow> {
  const row = await db
    .select()
    .from(licenceLots)
    .where(and(eq(licenceLots.id, id), isNull(licenceLots.deletedAt)))
    .get();
  if (!row) throw notFound("Licence lot");
  return row;
}

export async function keyCounts(db: TenantDb, lotIds: readonly string[]) {
  const rows = lotIds.length
    ? await db
        .select({ lotId: licenceKeys.lotId, n: sql<number>`count(*)` })
        .from(licenceKeys)
        .where(inJson(licenceKeys.lotId, lotIds))
        .groupBy(licenceKeys.lotId)
        .all()
    : [];
  const map = new Map(rows.map((r) => [r.lotId, r.n]));
  return (id: string) => map.get(id) ?? 0;
}

export async function getLot(db: TenantDb, id: string): Promise<Lot> {
  return toLot(await requireLot(db, id), (await keyCounts(db, [id]))(id));
}

export async function listLots(
  db: TenantDb,
  q: { limit: number; cursor?: string; productId?: string; updatedSince?: string },
) {
  const byProduct = q.productId ? eq(licenceLots.productId, q.productId) : undefined;
  if (q.updatedSince) {
    const s = syncClauses(licenceLots, { updatedSince: q.updatedSince, cursor: q.cursor }, byProduct);
    const rows = await db
      .select()
      .from(licenceLots)
      .where(s.where)
      .orderBy(...s.orderBy)
      .limit(q.limit + 1)
      .all();
    const keys = await keyCounts(
      db,
      rows.map((r) => r.id),
    );
    return syncPage(rows, q.limit, (r) => toLot(r, keys(r.id)));
  }
  const page = keyset(q, { by: [licenceLots.id] });
  const rows = await db
    .select()
    .from(licenceLots)
    .where(and(isNull(licenceLots.deletedAt), byProduct, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const keys = await keyCounts(
    db,
    rows.map((r) => r.id),
  );
  return page.of(
    rows,
    (r) => [r.id],
    (r) => toLot(r, keys(r.id)),
  );
}

/**
 * The rules a lot's fields keep together, without reading anything: the first one broken, as the
 * field and message of its 400 (the CSV import plans with it too), or null.
 */
export function lotRuleError(lot: LotRow): { path: string; message: string } | null {
  if (hasSeatCount(lot.kind) && lot.seats === null)
    return {
      path: "seats",
      message: `required for a ${lot.kind} lot (only site and unlimited lots have no seat count)`,
    };
  if (!hasSeatCount(lot.kind) && lot.seats !== null)
    return { path: "seats", message: `a ${lot.kind} lot has no seat count; leave it out` };
  if (lot.kind === "site" && !lot.locationId) return { path: "locationId", message: "required for a site lot" };
  if (lot.costMinor !== null && !lot.currency) return { path: "currency", message: "required with a cost" };
  if (lot.renewal && !lot.endDate) return { path: "endDate", message: "required when the term renews" };
  if (lot.autoRenew && !lot.renewal) return { path: "renewal", message: "required with autoRenew" };
  if (lot.renewal === "multi_year" && !lot.renewalYears)
    return { path: "renewalYears", message: "required for a multi_year renewal" };
  if (lot.startDate && lot.endDate && lot.startDate > lot.endDate)
    return { path: "endDate", message: "must not be before startDate" };
  return null;
}

async function checkLot(db: TenantDb, lot: LotRow, input: LotInput) {
  const broken = lotRuleError(lot);
  if (broken) throw invalidField(`body.${broken.path}`, broken.message);
  if (input.locationId) await requireLocation(db, input.locationId, "body.locationId");
}

/** A lot's row after an update with `input` (the cost in minor units of its currency), before its rules are checked. */
export function lotAfter(cur: LotRow, input: LotInput, at: string): LotRow {
  const given = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && k !== "cost"),
  ) as Partial<LotRow>;
  const next: LotRow = { ...cur, ...given, ...costOf(input, cur), updatedAt: at };
  if (next.renewal !== "multi_year") next.renewalYears = null;
  return next;
}

function costOf(input: LotInput, cur: Pick<LotRow, "costMinor" | "currency">) {
  const currency = input.currency === undefined ? cur.currency : input.currency;
  if (input.cost === undefined) return { costMinor: cur.costMinor, currency };
  if (input.cost === null) return { costMinor: null, currency };
  if (!currency) throw invalidField("body.currency", "required with a cost");
  return { costMinor: toMinor(input.cost, currency), currency };
}

export async function createLot(ctx: ServiceCtx, productId: string, input: LotInput & { kind: LotRow["kind"] }) {
  await requireProduct(ctx.db, productId);
  const at = nowIso();
  const row: LotRow = {
    id: newId("licenceLot"),
    productId,
    kind: input.kind,
    seats: input.seats ?? null,
    ...costOf(input, { costMinor: null, currency: null }),
    orderNumber: input.orderNumber ?? null,
    supplier: input.supplier ?? null,
    locationId: input.locationId ?? null,
    startDate: input.startDate ?? null,
    endDate: input.endDate ?? null,
    renewal: input.renewal ?? null,
    renewalYears: input.renewal === "multi_year" ? (input.renewalYears ?? null) : null,
    autoRenew: input.autoRenew ?? false,
    noticeDays: input.noticeDays ?? 30,
    assignedCount: 0,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    deletedBy: null,
  };
  await checkLot(ctx.db, row, input);
  const lot = toLot(row, 0);
  await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(
          ctx.db,
          "licence_product_live",
          sql`EXISTS (SELECT 1 FROM licence_products WHERE id = ${productId} AND deleted_at IS NULL)${row.locationId ? sql` AND ${isLive("location", row.locationId)}` : sql``}`,
        ),
      ],
      writes: [ctx.db.insert(licenceLots).values(row)],
      audits: [{ entityType: "licence_lot", entityId: row.id, action: "create", actor: ctx.actor, at, after: row }],
      events: [{ type: "licence_lot.created", subjectId: row.id, payload: lot }],
    },
    (err) => {
      if (guardFailed(err, "licence_product_live")) throw conflict("The product or location was deleted meanwhile");
      throw err;
    },
  );
  return lot;
}

const LOT_FIELDS = [
  "seats",
  "costMinor",
  "currency",
  "orderNumber",
  "supplier",
  "locationId",
  "startDate",
  "endDate",
  "renewal",
  "renewalYears",
  "autoRenew",
  "noticeDays",
] as const;

/**
 * Updates a lot. Lowering `seats` below the seats assigned is allowed (the compliance report then
 * shows the lot over-assigned); the open seats' cost per seat follows the lot's in the same batch.
 */
export async function updateLot(ctx: ServiceCtx, id: string, input: LotInput) {
  const cur = await requireLot(ctx.db, id);
  const at = nowIso();
  const next = lotAfter(cur, input, at);
  await checkLot(ctx.db, next, input);
  const changes = LOT_FIELDS.filter((k) => cur[k] !== next[k]);
  if (!changes.length) return getLot(ctx.db, id);
  const lot = toLot(next, (await keyCounts(ctx.db, [id]))(id));
  const {
    id: _i,
    createdAt: _c,
    deletedAt: _d,
    deletedBy: _b,
    assignedCount: _a,
    productId: _p,
    kind: _k,
    ...set
  } = next;
  await commitWrite(ctx, {
    writes: [
      ctx.db
        .update(licenceLots)
        .set(set)
        .where(and(eq(licenceLots.id, id), isNull(licenceLots.deletedAt))),
      ctx.db
        .update(licenceSeats)
        .set({ costMinor: seatCost(next), updatedAt: at })
        .where(and(eq(licenceSeats.lotId, id), isNull(licenceSeats.unassignedAt))),
    ],
    audits: [
      {
        entityType: "licence_lot",
        entityId: id,
        action: "update",
        actor: ctx.actor,
        at,
        before: cur,
        after: next,
        fields: changes,
      },
    ],
    events: [{ type: "licence_lot.updated", subjectId: id, payload: { ...lot, changes } }],
  });
  return lot;
}

/** Deletes a lot (to the trash); refused while it has assigned seats. Its keys stay sealed with it. */
export async function deleteLot(ctx: ServiceCtx, id: string) {
  const lot = await getLot(ctx.db, id);
  if (lot.assigned > 0) throw conflict(`The lot has ${lot.assigned} assigned seats; unassign or reclaim them first`);
  const at = nowIso();
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(licenceLots)
          .set({ deletedAt: at, deletedBy: ctx.actor, updatedAt: at })
          .where(and(eq(licenceLots.id, id), isNull(licenceLots.deletedAt), eq(licenceLots.assignedCount, 0))),
        { type: "licence_lot.deleted", subjectId: id, payload: { ...lot, deletedAt: at } },
      ),
    ),
  );
  if (changedRows(done) === 0) throw conflict("The lot changed meanwhile (a seat was assigned); retry");
}
