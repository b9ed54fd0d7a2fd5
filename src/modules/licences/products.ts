import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { licenceLots, licenceProducts } from "../../db/tenant/licences";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { inJson } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncClauses, syncPage } from "../../platform/sync";
import type { Product } from "./schemas";
import { type ProductRow, toProduct } from "./view";

type ProductInput = {
  name?: string;
  vendor?: string | null;
  category?: string | null;
  notes?: string | null;
  onHolderLeaves?: "release" | "hold";
  customFields?: Record<string, unknown>;
};

export async function requireProduct(db: TenantDb, id: string): Promise<ProductRow> {
  const row = await db
    .select()
    .from(licenceProducts)
    .where(and(eq(licenceProducts.id, id), isNull(licenceProducts.deletedAt)))
    .get();
  if (!row) throw notFound("Licence product");
  return row;
}

/** Seats owned (null when a live lot has no count) and assigned, per product, in one statement. */
export async function productTotals(db: TenantDb, ids: readonly string[]) {
  const rows = ids.length
    ? await db
        .select({
          productId: licenceLots.productId,
          unlimited: sql<number>`sum(${licenceLots.seats} IS NULL)`,
          seats: sql<number>`coalesce(sum(${licenceLots.seats}), 0)`,
          assigned: sql<number>`coalesce(sum(${licenceLots.assignedCount}), 0)`,
        })
        .from(licenceLots)
        .where(and(inJson(licenceLots.productId, ids), isNull(licenceLots.deletedAt)))
        .groupBy(licenceLots.productId)
        .all()
    : [];
  const map = new Map(rows.map((r) => [r.productId, { seats: r.unlimited ? null : r.seats, assigned: r.assigned }]));
  return (id: string) => map.get(id) ?? { seats: 0, assigned: 0 };
}

export async function getProduct(db: TenantDb, id: string): Promise<Product> {
  const row = await requireProduct(db, id);
  return toProduct(row, (await productTotals(db, [id]))(id));
}

export async function listProducts(
  db: TenantDb,
  q: { limit: number; cursor?: string; q?: string; updatedSince?: string },
) {
  if (q.updatedSince) {
    const s = syncClauses(licenceProducts, { updatedSince: q.updatedSince, cursor: q.cursor });
    const rows = await db
      .select()
      .from(licenceProducts)
      .where(s.where)
      .orderBy(...s.orderBy)
      .limit(q.limit + 1)
      .all();
    const totals = await productTotals(
      db,
      rows.map((r) => r.id),
    );
    return syncPage(rows, q.limit, (r) => toProduct(r, totals(r.id)));
  }
  const page = keyset(q, { by: [sql`lower(${licenceProducts.name})`, licenceProducts.id] });
  const prefix = q.q?.toLowerCase();
  const rows = await db
    .select()
    .from(licenceProducts)
    .where(
      and(
        isNull(licenceProducts.deletedAt),
        prefix
          ? sql`(lower(${licenceProducts.name}) >= ${prefix} AND lower(${licenceProducts.name}) < ${`${prefix}\uffff`} OR lower(${licenceProducts.vendor}) LIKE ${`${prefix.replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\')`
          : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const totals = await productTotals(
    db,
    rows.map((r) => r.id),
  );
  return page.of(
    rows,
    (r) => [r.name.toLowerCase(), r.id],
    (r) => toProduct(r, totals(r.id)),
  );
}

export async function createProduct(ctx: ServiceCtx, input: ProductInput & { name: string }): Promise<Product> {
  const at = nowIso();
  const row: ProductRow = {
    id: newId("licenceProduct"),
    name: input.name,
    vendor: input.vendor ?? null,
    category: input.category ?? null,
    notes: input.notes ?? null,
    onHolderLeaves: input.onHolderLeaves ?? "release",
    customFields: input.customFields ?? {},
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    deletedBy: null,
  };
  const product = toProduct(row, { seats: 0, assigned: 0 });
  await commitWrite(ctx, {
    writes: [ctx.db.insert(licenceProducts).values(row)],
    audits: [{ entityType: "licence_product", entityId: row.id, action: "create", actor: ctx.actor, at, after: row }],
    events: [{ type: "licence_product.created", subjectId: row.id, payload: product }],
  });
  return product;
}

export async function updateProduct(ctx: ServiceCtx, id: string, input: ProductInput): Promise<Product> {
  const cur = await requireProduct(ctx.db, id);
  const at = nowIso();
  const next: ProductRow = {
    ...cur,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
    updatedAt: at,
  };
  const changes = (["name", "vendor", "category", "notes", "onHolderLeaves", "customFields"] as const).filter(
    (k) => JSON.stringify(cur[k]) !== JSON.stringify(next[k]),
  );
  if (!changes.length) return getProduct(ctx.db, id);
  const product = toProduct(next, (await productTotals(ctx.db, [id]))(id));
  const { id: _i, createdAt: _c, deletedAt: _d, deletedBy: _b, ...set } = next;
  await commitWrite(ctx, {
    writes: [
      ctx.db
        .update(licenceProducts)
        .set(set)
        .where(and(eq(licenceProducts.id, id), isNull(licenceProducts.deletedAt))),
    ],
    audits: [
      {
        entityType: "licence_product",
        entityId: id,
        action: "update",
        actor: ctx.actor,
        at,
        before: cur,
        after: next,
        fields: changes,
      },
    ],
    events: [{ type: "licence_product.updated", subjectId: id, payload: { ...product, changes } }],
  });
  return product;
}

/** To the trash; refused while the product has open seats (unassign or reclaim them first). */
export async function deleteProduct(ctx: ServiceCtx, id: string) {
  const product = await getProduct(ctx.db, id);
  if (product.assigned > 0)
    throw conflict(`The product has ${product.assigned} assigned seats; unassign or reclaim them first`);
  const at = nowIso();
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(licenceProducts)
        .set({ deletedAt: at, deletedBy: ctx.actor, updatedAt: at })
        .where(
          and(
            eq(licenceProducts.id, id),
            isNull(licenceProducts.deletedAt),
            sql`NOT EXISTS (SELECT 1 FROM ${licenceLots} WHERE ${licenceLots.productId} = ${id} AND ${licenceLots.deletedAt} IS NULL AND ${licenceLots.assignedCount} > 0)`,
          ),
        ),
      { type: "licence_product.deleted", subjectId: id, payload: { ...product, deletedAt: at } },
    ),
  );
  if (changedRows(done) === 0) throw conflict("The product changed meanwhile (a seat was assigned); retry");
}

export async function restoreProduct(ctx: ServiceCtx, id: string): Promise<Product> {
  const row = await ctx.db
    .select()
    .from(licenceProducts)
    .where(and(eq(licenceProducts.id, id), isNotNull(licenceProducts.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted licence product");
  const at = nowIso();
  const product = toProduct(
    { ...row, deletedAt: null, deletedBy: null, updatedAt: at },
    (await productTotals(ctx.db, [id]))(id),
  );
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(licenceProducts)
        .set({ deletedAt: null, deletedBy: null, updatedAt: at })
        .where(and(eq(licenceProducts.id, id), isNotNull(licenceProducts.deletedAt))),
      { type: "licence_product.restored", subjectId: id, payload: product },
    ),
  );
  if (changedRows(done) === 0) throw notFound("Deleted licence product");
  return product;
}
