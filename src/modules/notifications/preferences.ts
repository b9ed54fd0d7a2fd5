import { and, eq, sql } from "drizzle-orm";
import {
  type DeliveryMode,
  notificationPreferences as p,
  notificationUserSettings as us,
} from "../../db/tenant/notification-delivery";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { insertJsonRows } from "../../platform/d1-write";
import { notFound } from "../../platform/errors";
import { workspaceDelivery } from "./delivery/recipients";
import { KIND_NAMES, kindOf } from "./kinds";

export interface PrefsCtx {
  db: TenantDb;
  userId: string;
  workspaceZone: string;
}

/** The caller's time zone, quiet hours and, per kind, the email mode in effect and where it comes from. */
export async function getPreferences(ctx: PrefsCtx) {
  const [user, settings, own] = await Promise.all([
    ctx.db.select({ role: users.role }).from(users).where(eq(users.id, ctx.userId)).limit(1),
    ctx.db.select().from(us).where(eq(us.userId, ctx.userId)).limit(1),
    ctx.db
      .select()
      .from(p)
      .where(and(eq(p.recipientId, ctx.userId), eq(p.channel, "email"))),
  ]);
  const role = user[0]?.role;
  if (!role) throw notFound("User");
  const ws = await workspaceDelivery(ctx.db);
  const mine = new Map(own.map((o) => [o.kind, o.mode]));
  const s = settings[0];
  return {
    timeZone: s?.timeZone ?? null,
    effectiveTimeZone: s?.timeZone ?? ctx.workspaceZone,
    quietHours: s?.quietStart && s.quietEnd ? { start: s.quietStart, end: s.quietEnd } : null,
    kinds: KIND_NAMES.map((kind) => {
      const chosen = mine.get(kind);
      const workspace = ws.kinds.get(kind)?.emailMode;
      return {
        kind,
        label: kindOf(kind)!.label,
        channel: "email" as const,
        mode: chosen ?? workspace ?? kindOf(kind)!.email[role],
        source: chosen ? ("user" as const) : workspace ? ("workspace" as const) : ("default" as const),
      };
    }),
  };
}

export interface PreferencesPatch {
  timeZone?: string | null;
  quietHours?: { start: string; end: string } | null;
  kinds?: { kind: string; channel: "email"; mode: DeliveryMode | null }[];
}

/** Changes what the patch names; a kind with `mode: null` returns to the default. One batch. */
export async function updatePreferences(ctx: PrefsCtx, patch: PreferencesPatch) {
  const at = nowIso();
  const writes = [];
  if (patch.timeZone !== undefined || patch.quietHours !== undefined) {
    const set = {
      ...(patch.timeZone !== undefined ? { timeZone: patch.timeZone } : {}),
      ...(patch.quietHours !== undefined
        ? { quietStart: patch.quietHours?.start ?? null, quietEnd: patch.quietHours?.end ?? null }
        : {}),
      updatedAt: at,
    };
    writes.push(
      ctx.db
        .insert(us)
        .values({ userId: ctx.userId, ...set })
        .onConflictDoUpdate({ target: us.userId, set }),
    );
  }
  const chosen = (patch.kinds ?? []).filter((k) => k.mode !== null);
  for (const k of (patch.kinds ?? []).filter((k) => k.mode === null))
    writes.push(
      ctx.db.delete(p).where(and(eq(p.recipientId, ctx.userId), eq(p.kind, k.kind), eq(p.channel, k.channel))),
    );
  if (chosen.length)
    writes.push(
      insertJsonRows(
        ctx.db,
        p,
        chosen.map((k) => ({
          recipientId: ctx.userId,
          kind: k.kind,
          channel: k.channel,
          mode: k.mode!,
          updatedAt: at,
        })),
      ).onConflictDoUpdate({
        target: [p.recipientId, p.kind, p.channel],
        set: { mode: sqlExcluded("mode"), updatedAt: at },
      }),
    );
  await commitWrite({ db: ctx.db, actor: ctx.userId }, { writes });
  return getPreferences(ctx);
}

const sqlExcluded = (column: string) => sql.raw(`excluded.${column}`);

/** Sets `mode` for the recipient's email of each kind (the one-click unsubscribe). */
export function setModes(db: TenantDb, recipientId: string, kinds: readonly string[], mode: DeliveryMode) {
  const at = nowIso();
  return insertJsonRows(
    db,
    p,
    kinds.map((kind) => ({ recipientId, kind, channel: "email", mode, updatedAt: at })),
  ).onConflictDoUpdate({ target: [p.recipientId, p.kind, p.channel], set: { mode, updatedAt: at } });
}
