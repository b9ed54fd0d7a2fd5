import { and, eq, inArray, sql } from "drizzle-orm";
import { type CodeHolderKind, type CodeStatus, codes, type Symbology } from "../../db/tenant/labels";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { syncClauses, syncPage } from "../../platform/sync";
import { describeHolder, findHolder, type Holder, requireHolder, tagHolder } from "./holders";
import { normaliseCodeValue, scanVariants } from "./symbols";

type CodeRow = typeof codes.$inferSelect;

export async function presentCode(db: TenantDb, row: CodeRow) {
  const h = row.holderKind && row.holderId ? await findHolder(db, row.holderKind, row.holderId) : null;
  return {
    id: row.id,
    value: row.value,
    symbology: row.symbology,
    status: row.status,
    holder: h ? { kind: h.kind, id: h.id, name: h.name } : null,
    batchId: row.batchId,
    createdAt: row.createdAt,
    claimedAt: row.claimedAt,
    voidedAt: row.voidedAt,
    updatedAt: row.updatedAt,
  };
}

/** The live (not void) code row of a value, or null. */
async function liveCode(db: TenantDb, value: string): Promise<CodeRow | null> {
  const variants = scanVariants(value).map((v) => v.toLowerCase());
  return (
    (await db
      .select()
      .from(codes)
      .where(and(inArray(codes.valueLc, variants), sql`${codes.status} <> 'void'`))
      .get()) ?? null
  );
}

/** Why `value` cannot be given to anything else: a tag or a live code, named. Null when it is free. */
async function takenBy(db: TenantDb, value: string): Promise<string | null> {
  const tag = await tagHolder(db, value);
  if (tag) return `'${value}' is the tag of ${describeHolder(tag)}`;
  const row = await liveCode(db, value);
  if (!row) return null;
  if (row.status === "reserved")
    return `'${value}' is reserved (unclaimed) in tag batch ${row.batchId}: claim it instead`;
  const h = row.holderKind && row.holderId ? await findHolder(db, row.holderKind, row.holderId) : null;
  return `'${value}' is already on ${h ? describeHolder(h) : `${row.holderKind} ${row.holderId}`}`;
}

const event = (type: string, payload: Awaited<ReturnType<typeof presentCode>>) => ({
  type,
  subjectId: payload.id,
  payload,
});

/** Attaches a code to a holder; 409 naming the holder when the value is taken (a tag or another code). */
export async function attachCode(
  ctx: ServiceCtx,
  input: { value: string; symbology: Symbology; holder: { kind: CodeHolderKind; id: string } },
) {
  const value = normaliseCodeValue(input.symbology, input.value, "body.value");
  const holder = await requireHolder(ctx.db, input.holder.kind, input.holder.id, "body.holder.id");
  const taken = await takenBy(ctx.db, value);
  if (taken) throw conflict(taken);
  const at = nowIso();
  const row: CodeRow = {
    id: newId("code"),
    value,
    valueLc: value.toLowerCase(),
    symbology: input.symbology,
    status: "active",
    holderKind: holder.kind,
    holderId: holder.id,
    batchId: null,
    createdAt: at,
    claimedAt: at,
    claimedBy: ctx.actor,
    voidedAt: null,
    updatedAt: at,
  };
  const out = await presentCode(ctx.db, row);
  try {
    await commitWrite(ctx, {
      writes: [ctx.db.insert(codes).values(row)],
      audits: [{ entityType: "code", entityId: row.id, action: "create", actor: ctx.actor, at, after: { ...row } }],
      events: [event("code.created", out)],
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict((await takenBy(ctx.db, value)) ?? `'${value}' was just taken`);
    throw err;
  }
  return out;
}

export async function listCodes(
  { db }: ServiceCtx,
  input: {
    limit: number;
    cursor?: string;
    status?: CodeStatus;
    holderKind?: CodeHolderKind;
    holderId?: string;
    batchId?: string;
    updatedSince?: string;
  },
) {
  const filters = and(
    input.status ? eq(codes.status, input.status) : undefined,
    input.holderKind ? eq(codes.holderKind, input.holderKind) : undefined,
    input.holderId ? eq(codes.holderId, input.holderId) : undefined,
    input.batchId ? eq(codes.batchId, input.batchId) : undefined,
  );
  if (input.updatedSince) {
    // Sync: every change since, voided codes included (their value names nothing any more).
    const sync = syncClauses(codes, { ...input, updatedSince: input.updatedSince }, filters);
    const rows = await db
      .select()
      .from(codes)
      .where(sync.where)
      .orderBy(...sync.orderBy)
      .limit(input.limit + 1)
      .all();
    const items = new Map((await Promise.all(rows.map((r) => presentCode(db, r)))).map((i) => [i.id, i]));
    return syncPage(rows, input.limit, (r) => items.get(r.id)!);
  }
  const page = keyset(input, { by: [codes.id] });
  const rows = await db
    .select()
    .from(codes)
    .where(and(filters, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const items = await Promise.all(rows.map((r) => presentCode(db, r)));
  const byId = new Map(items.map((i) => [i.id, i]));
  return page.of(
    rows,
    (r) => [r.id],
    (r) => byId.get(r.id)!,
  );
}

/**
 * What a scanned value names, by any code: a holder's own tag first, then a code (a UPC-A read as
 * its 13-digit EAN, or the other way round, finds the same code). A void code, or nothing, is a 404.
 */
export async function lookupCode({ db }: ServiceCtx, raw: string) {
  const value = raw.trim();
  const tag = value ? await tagHolder(db, value) : null;
  if (tag) return { value, matchedBy: "tag" as const, status: "active" as const, holder: tag, code: null };
  const row = value ? await liveCode(db, value) : null;
  if (!row) throw notFound(`Code '${value}'`);
  const code = await presentCode(db, row);
  const holder = row.holderKind && row.holderId ? await findHolder(db, row.holderKind, row.holderId) : null;
  return { value, matchedBy: "code" as const, status: row.status, holder, code };
}

/**
 * Claims a reserved code for a holder, exactly once: one conditional UPDATE (`status = 'reserved'`)
 * decides between two phones claiming the same code; the loser's 409 names the winner's holder.
 */
export async function claimCode(ctx: ServiceCtx, raw: string, target: { kind: CodeHolderKind; id: string }) {
  // The path's code first: another workspace's (or an unknown) value is a 404 whatever the body says.
  const row = await liveCode(ctx.db, raw);
  if (!row) throw notFound(`Code '${raw.trim()}'`);
  const holder: Holder = await requireHolder(ctx.db, target.kind, target.id, "body.holder.id");
  if (row.status !== "reserved") throw conflict((await takenBy(ctx.db, row.value)) ?? `'${row.value}' is not reserved`);
  const at = nowIso();
  const after: CodeRow = {
    ...row,
    status: "active",
    holderKind: holder.kind,
    holderId: holder.id,
    claimedAt: at,
    claimedBy: ctx.actor,
    updatedAt: at,
  };
  const out = await presentCode(ctx.db, after);
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(codes)
          .set({
            status: "active",
            holderKind: holder.kind,
            holderId: holder.id,
            claimedAt: at,
            claimedBy: ctx.actor,
            updatedAt: at,
          })
          .where(and(eq(codes.id, row.id), eq(codes.status, "reserved"))),
        event("code.claimed", out),
      ),
      {
        audits: [
          {
            entityType: "code",
            entityId: row.id,
            action: "update",
            actor: ctx.actor,
            at,
            before: { ...row },
            after: { ...after },
          },
        ],
      },
    ),
  );
  if (changedRows(done) === 0)
    throw conflict((await takenBy(ctx.db, row.value)) ?? `'${row.value}' was voided meanwhile`);
  return out;
}

/** Voids a code (reserved or active): it no longer names anything, and its value is free again. */
export async function voidCode(ctx: ServiceCtx, id: string) {
  const row = await ctx.db.select().from(codes).where(eq(codes.id, id)).get();
  if (!row) throw notFound("Code");
  if (row.status === "void") return presentCode(ctx.db, row);
  const at = nowIso();
  const out = await presentCode(ctx.db, { ...row, status: "void", voidedAt: at, updatedAt: at });
  await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(codes)
          .set({ status: "void", voidedAt: at, updatedAt: at })
          .where(and(eq(codes.id, id), sql`${codes.status} <> 'void'`)),
        event("code.voided", out),
      ),
      {
        audits: [
          {
            entityType: "code",
            entityId: id,
            action: "update",
            actor: ctx.actor,
            at,
            before: { status: row.status },
            after: { status: "void" },
          },
        ],
      },
    ),
  );
  return out;
}
