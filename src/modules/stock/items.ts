import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { stockItems, stockMovements } from "../../db/tenant/stock";
import { resolveCategory } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import type { AuditChange } from "../../events/audit";
import { changedRows, commitWrite, ifChanged, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { liveDefinitions } from "../custom-fields";
import { categoryLive, columnsFor, generateStockTag, type StockItemInput, taken } from "./input";
import { CROSSING_NOTIFICATIONS_AT, createdNotifications, crossingStatements } from "./ledger/crossings";
import { pushNotifications, type StockCtx } from "./rows";
import { AUDITED_FIELDS, type StockItemRow, type StockItemView, toStockItem } from "./view";

const TAG_ATTEMPTS = 5;
export const liveItem = isNull(stockItems.deletedAt);
export const stockFieldDefs = (db: TenantDb) => liveDefinitions(db, "stock_item");

/** A live stock item, or 404. */
export async function requireStockItem(db: TenantDb, id: string): Promise<StockItemRow> {
  const row = await db
    .select()
    .from(stockItems)
    .where(and(eq(stockItems.id, id), liveItem))
    .get();
  if (!row) throw notFound("Stock item");
  return row;
}

export async function getStockItem(db: TenantDb, id: string): Promise<StockItemView> {
  return toStockItem(await requireStockItem(db, id), await stockFieldDefs(db));
}

/** The live item with this tag (as printed on its label), compared case-insensitively like the unique index. */
export async function getStockItemByTag(db: TenantDb, tag: string): Promise<StockItemView> {
  const row = await db
    .select()
    .from(stockItems)
    .where(and(sql`lower(${stockItems.tag}) = lower(${tag})`, liveItem))
    .get();
  if (!row) throw notFound("Stock item");
  return toStockItem(row, await stockFieldDefs(db));
}

/** Commits an item's write; a taken tag or SKU is a 409, a category deleted meanwhile the same 400 as if read now. */
const run = (ctx: ServiceCtx, row: Pick<StockItemRow, "tag" | "sku" | "categoryId">, w: Write) =>
  commitWrite(ctx, w, async (err) => {
    if (isUniqueViolation(err)) throw Object.assign(taken(row), { cause: err });
    if (guardFailed(err, "stock_category")) await resolveCategory(ctx.db, row.categoryId);
    throw err;
  });

const audit = (
  ctx: ServiceCtx,
  action: string,
  at: string,
  before: StockItemView | null,
  after: StockItemView,
): AuditChange => ({
  entityType: "stock_item",
  entityId: after.id,
  action,
  actor: ctx.actor,
  at,
  before,
  after,
  fields: AUDITED_FIELDS,
});

export async function createStockItem(ctx: StockCtx, input: StockItemInput & { name: string }) {
  const { db } = ctx;
  const categoryId = await resolveCategory(db, input.categoryId);
  const defs = await stockFieldDefs(db);
  const cols = await columnsFor(ctx, { ...input, categoryId }, defs);
  const now = nowIso();
  for (let attempt = 1; ; attempt++) {
    const row: StockItemRow = {
      id: newId("stockItem"),
      name: input.name,
      categoryId,
      unit: "each",
      sku: null,
      tag: input.tag ?? generateStockTag(),
      unitCostMinor: null,
      currency: null,
      returnable: false,
      requestable: false,
      reorderLevel: null,
      onHand: 0,
      low: false,
      notes: null,
      customFields: {},
      fileKeys: [],
      ...cols,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      deletedBy: null,
    };
    const out = toStockItem(row, defs);
    const written = await run(ctx, row, {
      guards: [batchGuard(db, "stock_category", categoryLive(categoryId))],
      writes: [db.insert(stockItems).values(row)],
      audits: [audit(ctx, "create", now, null, out)],
      events: [{ type: "stock_item.created", subjectId: row.id, payload: out }],
      // A reorder level above 0 on an empty item is already crossed.
      derived: crossingStatements(db, { levels: [], itemIds: [row.id] }, ctx.actor),
    }).then(
      // Push the notifications the crossing statements made.
      async (done) => {
        await pushNotifications(ctx, createdNotifications(done.results[done.derivedAt + CROSSING_NOTIFICATIONS_AT]));
        return true;
      },
      (err: unknown) => {
        // A generated tag that collided: draw another.
        if (input.tag === undefined && attempt < TAG_ATTEMPTS && isUniqueViolation(err, "stock_items_tag_live_uq"))
          return false;
        throw err;
      },
    );
    if (written) return getStockItem(db, row.id);
  }
}

export async function updateStockItem(ctx: StockCtx, id: string, input: StockItemInput) {
  const { db } = ctx;
  const cur = await requireStockItem(db, id);
  if (input.categoryId !== undefined) await resolveCategory(db, input.categoryId);
  const defs = await stockFieldDefs(db);
  const cols = await columnsFor(ctx, input, defs, cur);
  const now = nowIso();
  const next: StockItemRow = { ...cur, ...cols, updatedAt: now };
  const before = toStockItem(cur, defs);
  const after = toStockItem(next, defs);
  const changes = AUDITED_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  if (!changes.length) return before;
  if (cur.returnable && next.returnable === false && (await openIssueCount(db, id)) > 0)
    throw conflict("Units of this item are still out on returnable issues; return them before making it consumable");
  const crossing = changes.includes("reorderLevel");
  const done = await run(
    ctx,
    next,
    joinWrites(
      { guards: [batchGuard(db, "stock_category", categoryLive(next.categoryId))] },
      ifChanged(
        ctx,
        db
          .update(stockItems)
          .set({ ...cols, updatedAt: now })
          .where(and(eq(stockItems.id, id), liveItem)),
        { type: "stock_item.updated", subjectId: id, payload: { ...after, changes } },
      ),
      {
        audits: [audit(ctx, "update", now, before, after)],
        derived: crossing ? crossingStatements(db, { levels: [], itemIds: [id] }, ctx.actor) : [],
      },
    ),
  );
  // The crossing statements follow the update and its event.
  if (crossing)
    await pushNotifications(ctx, createdNotifications(done.results[done.derivedAt + 2 + CROSSING_NOTIFICATIONS_AT]));
  return getStockItem(db, id);
}

const openIssues = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${stockMovements} WHERE ${stockMovements.itemId} = ${id} AND ${stockMovements.openQuantity} > 0)`;

async function openIssueCount(db: TenantDb, id: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(stockMovements)
    .where(and(eq(stockMovements.itemId, id), sql`${stockMovements.openQuantity} > 0`))
    .get();
  return row?.n ?? 0;
}

/**
 * Moves the item to the trash with its quantities (a restore brings them back). Refused while
 * units are out on returnable issues: someone holds them, and their return needs a live item.
 */
export async function deleteStockItem(ctx: ServiceCtx, id: string) {
  const { db } = ctx;
  const cur = await requireStockItem(db, id);
  const open = await openIssueCount(db, id);
  if (open) throw conflict(`${open} returnable issue(s) of this item are still open; return them first`, { open });
  const at = nowIso();
  const out = toStockItem(cur, await stockFieldDefs(db));
  const done = await commitWrite(
    ctx,
    joinWrites(
      { guards: [batchGuard(db, "stock_open_issues", sql`NOT ${openIssues(id)}`)] },
      ifChanged(
        ctx,
        db
          .update(stockItems)
          .set({ deletedAt: at, deletedBy: ctx.actor, updatedAt: at })
          .where(and(eq(stockItems.id, id), liveItem)),
        { type: "stock_item.deleted", subjectId: id, payload: { ...out, deletedAt: at } },
      ),
      { audits: [audit(ctx, "delete", at, null, out)] },
    ),
    (err) => {
      if (guardFailed(err, "stock_open_issues")) throw conflict("An issue of this item was made meanwhile; retry");
      throw err;
    },
  );
  if (changedRows(done) === 0) throw notFound("Stock item");
}

/** Brings a trashed item back (also used by the trash). 409 when its tag or SKU is taken meanwhile, or its category is deleted. */
export async function restoreStockItem(ctx: ServiceCtx, id: string): Promise<StockItemView> {
  const { db } = ctx;
  const row = await db
    .select()
    .from(stockItems)
    .where(and(eq(stockItems.id, id), isNotNull(stockItems.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted stock item");
  const at = nowIso();
  const out = toStockItem({ ...row, deletedAt: null, deletedBy: null, updatedAt: at }, await stockFieldDefs(db));
  await commitWrite(
    ctx,
    joinWrites(
      { guards: [batchGuard(db, "stock_category", categoryLive(row.categoryId))] },
      ifChanged(
        ctx,
        db
          .update(stockItems)
          .set({ deletedAt: null, deletedBy: null, updatedAt: at })
          .where(and(eq(stockItems.id, id), isNotNull(stockItems.deletedAt))),
        { type: "stock_item.restored", subjectId: id, payload: out },
      ),
      { audits: [audit(ctx, "restore", at, null, out)] },
    ),
    (err) => {
      if (isUniqueViolation(err)) throw taken(row);
      if (guardFailed(err, "stock_category"))
        throw conflict("Cannot restore: its category is deleted; restore that first", { categoryId: row.categoryId });
      throw err;
    },
  );
  return out;
}
