import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { kitMembers, kits } from "../../db/tenant/kits";
import type { TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed, inJson, insertJsonRows } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { MAX_KIT_MEMBERS } from "./schemas";
import { type Kit, type KitRow, type MemberState, toKit } from "./view";

/** A live kit (not in the trash), or 404. */
export async function requireKit(db: TenantDb, id: string): Promise<KitRow> {
  const row = await db
    .select()
    .from(kits)
    .where(and(eq(kits.id, id), isNull(kits.deletedAt)))
    .get();
  if (!row) throw notFound("Kit");
  return row;
}

export async function memberStates(db: TenantDb, kitId: string): Promise<MemberState[]> {
  return (await membersOfKits(db, [kitId])).get(kitId) ?? [];
}

/** The live members of several kits in one statement (ids as one JSON parameter). */
async function membersOfKits(db: TenantDb, kitIds: readonly string[]): Promise<Map<string, MemberState[]>> {
  const rows = kitIds.length
    ? await db
        .select({ kitId: kitMembers.kitId, assetId: kitMembers.assetId, status: assets.status })
        .from(kitMembers)
        .innerJoin(assets, and(eq(assets.id, kitMembers.assetId), isNull(assets.deletedAt)))
        .where(inJson(kitMembers.kitId, kitIds))
        .orderBy(kitMembers.kitId, kitMembers.assetId)
        .all()
    : [];
  const byKit = new Map<string, MemberState[]>();
  for (const { kitId, ...m } of rows) byKit.set(kitId, [...(byKit.get(kitId) ?? []), m]);
  return byKit;
}

export async function getKit(db: TenantDb, id: string): Promise<Kit> {
  return toKit(await requireKit(db, id), await memberStates(db, id));
}

/**
 * A kit a requester may ask for: it has members and every one is live and requestable (the rule
 * POST /requests applies to a kit, docs/requests.md).
 */
const requestableKit = sql`EXISTS (SELECT 1 FROM ${kitMembers} WHERE ${kitMembers.kitId} = ${kits.id})
  AND NOT EXISTS (SELECT 1 FROM ${kitMembers} JOIN ${assets} ON ${assets.id} = ${kitMembers.assetId}
    WHERE ${kitMembers.kitId} = ${kits.id} AND (${assets.requestable} = 0 OR ${assets.deletedAt} IS NOT NULL))`;

/** `requestableOnly`: the self-service role's view, the kits it may request. */
export async function listKits(db: TenantDb, q: { limit: number; cursor?: string }, requestableOnly = false) {
  const page = keyset(q, { by: [kits.id] });
  const rows = await db
    .select()
    .from(kits)
    .where(and(isNull(kits.deletedAt), requestableOnly ? requestableKit : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const kitRows = page.of(
    rows,
    (r) => [r.id],
    (r) => r,
  );
  const members = await membersOfKits(
    db,
    kitRows.items.map((r) => r.id),
  );
  return { items: kitRows.items.map((r) => toKit(r, members.get(r.id) ?? [])), nextCursor: kitRows.nextCursor };
}

/** Adds members: each must be a live item in no kit (409 naming the ones already in a kit). */
async function memberInserts(ctx: ServiceCtx, kitId: string, ids: readonly string[], at: string) {
  const { db } = ctx;
  if (!ids.length) return { guard: [], inserts: [], states: [] as MemberState[] };
  const live = await db
    .select({ assetId: assets.id, status: assets.status })
    .from(assets)
    .where(and(inJson(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  const unknown = ids.filter((id) => !live.some((r) => r.assetId === id));
  if (unknown.length) throw invalidField("body.assetIds", `unknown or deleted inventory items: ${unknown.join(", ")}`);
  const taken = await db.select().from(kitMembers).where(inJson(kitMembers.assetId, ids)).all();
  if (taken.length)
    throw conflict("An item belongs to at most one kit", {
      members: taken.map((m) => ({ assetId: m.assetId, reason: `already in kit ${m.kitId}` })),
    });
  const count =
    (await db.select({ n: sql<number>`count(*)` }).from(kitMembers).where(eq(kitMembers.kitId, kitId)).get())?.n ?? 0;
  if (count + ids.length > MAX_KIT_MEMBERS)
    throw invalidField("body.assetIds", `a kit holds at most ${MAX_KIT_MEMBERS} items`);
  return {
    states: live.sort((a, b) => (a.assetId < b.assetId ? -1 : 1)),
    guard: [
      batchGuard(
        db,
        "kit_members",
        sql`(SELECT count(*) FROM ${assets} WHERE ${inJson(assets.id, ids)} AND ${assets.deletedAt} IS NULL) = ${ids.length}`,
      ),
    ],
    // 3 columns per row: 30 rows per INSERT.
    inserts: Array.from({ length: Math.ceil(ids.length / 30) }, (_, i) =>
      db.insert(kitMembers).values(ids.slice(i * 30, i * 30 + 30).map((assetId) => ({ kitId, assetId, addedAt: at }))),
    ),
  };
}

/** A kit write through the house recipe; a lost race on membership is a 409. */
const commitKitWrite = (ctx: ServiceCtx, w: Write) =>
  commitWrite(ctx, w, (err) => {
    if (isUniqueViolation(err))
      throw conflict("An item was added to another kit meanwhile; an item belongs to at most one kit");
    if (guardFailed(err, "kit_members")) throw conflict("An item was deleted meanwhile; retry");
    throw err;
  });

export async function createKit(
  ctx: ServiceCtx,
  input: { name: string; description?: string | null; assetIds?: string[] },
) {
  const now = nowIso();
  const row: KitRow = {
    id: newId("kit"),
    name: input.name,
    description: input.description?.trim() || null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
    deletedMembers: null,
  };
  const m = await memberInserts(ctx, row.id, input.assetIds ?? [], now);
  const kit = toKit(row, m.states);
  await commitKitWrite(ctx, {
    guards: m.guard,
    writes: [ctx.db.insert(kits).values(row), ...m.inserts],
    events: [{ type: "kit.created", subjectId: kit.id, payload: kit }],
  });
  return kit;
}

export async function updateKit(ctx: ServiceCtx, id: string, input: { name?: string; description?: string | null }) {
  const row = await requireKit(ctx.db, id);
  const now = nowIso();
  const set = {
    name: input.name ?? row.name,
    description: input.description === undefined ? row.description : input.description?.trim() || null,
    updatedAt: now,
  };
  const kit = toKit({ ...row, ...set }, await memberStates(ctx.db, id));
  await commitWrite(ctx, {
    writes: [ctx.db.update(kits).set(set).where(eq(kits.id, id))],
    events: [{ type: "kit.updated", subjectId: id, payload: kit }],
  });
  return kit;
}

export async function addMembers(ctx: ServiceCtx, id: string, assetIds: string[]) {
  await requireKit(ctx.db, id);
  const now = nowIso();
  const m = await memberInserts(ctx, id, assetIds, now);
  await commitKitWrite(ctx, {
    guards: m.guard,
    writes: [...m.inserts, ctx.db.update(kits).set({ updatedAt: now }).where(eq(kits.id, id))],
  });
  return getKit(ctx.db, id);
}

export async function removeMember(ctx: ServiceCtx, id: string, assetId: string) {
  await requireKit(ctx.db, id);
  const gone = await ctx.db
    .delete(kitMembers)
    .where(and(eq(kitMembers.kitId, id), eq(kitMembers.assetId, assetId)))
    .returning()
    .all();
  if (!gone.length) throw notFound("Kit member");
  return getKit(ctx.db, id);
}

/**
 * Moves the kit to the trash (not its items): its members are released, so they can join another
 * kit meanwhile, and remembered for a restore.
 */
export async function deleteKit(ctx: ServiceCtx, id: string) {
  const kit = await getKit(ctx.db, id);
  const at = nowIso();
  const done = await commitWrite(ctx, {
    writes: [
      ctx.db
        .update(kits)
        .set({
          deletedAt: at,
          deletedBy: ctx.actor,
          updatedAt: at,
          deletedMembers: sql`(SELECT json_group_array(${kitMembers.assetId}) FROM ${kitMembers} WHERE ${kitMembers.kitId} = ${id})`,
        })
        .where(and(eq(kits.id, id), isNull(kits.deletedAt))),
    ],
    // Each statement runs only if the one before it wrote (a concurrent delete changes nothing).
    derived: [
      recordEventIfChanged(ctx.db, {
        type: "kit.deleted",
        subjectId: id,
        actor: ctx.actor,
        payload: { ...kit, deletedAt: at },
      }),
      ctx.db.delete(kitMembers).where(and(eq(kitMembers.kitId, id), sql`changes() > 0`)),
    ],
  });
  if ((done.results[done.writesAt] as D1Result).meta.changes === 0) throw notFound("Kit");
}

/**
 * Restores a trashed kit with the members it had that are still live items; a member that joined
 * another kit meanwhile refuses the restore (409 naming it), so a kit never comes back short.
 */
export async function restoreKit(ctx: ServiceCtx, id: string): Promise<Kit> {
  const { db } = ctx;
  const row = await db
    .select()
    .from(kits)
    .where(and(eq(kits.id, id), isNotNull(kits.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted kit");
  const remembered = row.deletedMembers ?? [];
  const states: MemberState[] = remembered.length
    ? await db
        .select({ assetId: assets.id, status: assets.status })
        .from(assets)
        .where(and(inJson(assets.id, remembered), isNull(assets.deletedAt)))
        .orderBy(assets.id)
        .all()
    : [];
  const live = states.map((m) => m.assetId);
  const taken = live.length ? await db.select().from(kitMembers).where(inJson(kitMembers.assetId, live)).all() : [];
  if (taken.length)
    throw conflict(
      `Cannot restore: items joined another kit meanwhile: ${taken.map((m) => `${m.assetId} (in ${m.kitId})`).join(", ")}`,
      {
        members: taken.map((m) => ({ assetId: m.assetId, reason: `now in kit ${m.kitId}` })),
      },
    );
  const at = nowIso();
  const restored: KitRow = { ...row, deletedAt: null, deletedBy: null, deletedMembers: null, updatedAt: at };
  const kit = toKit(restored, states);
  await commitKitWrite(ctx, {
    writes: [
      db
        .update(kits)
        .set({ deletedAt: null, deletedBy: null, deletedMembers: null, updatedAt: at })
        .where(and(eq(kits.id, id), isNotNull(kits.deletedAt))),
      ...(live.length
        ? [
            insertJsonRows(
              db,
              kitMembers,
              live.map((assetId) => ({ kitId: id, assetId, addedAt: at })),
            ),
          ]
        : []),
    ],
    derived: [recordEventIfChanged(db, { type: "kit.restored", subjectId: id, actor: ctx.actor, payload: kit })],
  });
  return kit;
}

/** The kit an item belongs to, or 404. */
export async function kitOfItem(db: TenantDb, assetId: string): Promise<Kit> {
  const m = await db.select().from(kitMembers).where(eq(kitMembers.assetId, assetId)).get();
  if (!m) throw notFound("Kit of this inventory item");
  return getKit(db, m.kitId);
}
