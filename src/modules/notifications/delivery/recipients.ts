import { and, eq, sql } from "drizzle-orm";
import {
  type DeliveryMode,
  notificationKindSettings,
  notificationPreferences,
  notificationUserSettings,
  notificationWorkspaceSettings,
} from "../../../db/tenant/notification-delivery";
import { people } from "../../../db/tenant/people";
import { type Role, users } from "../../../db/tenant/users";
import type { TenantDb } from "../../../env";
import { inJson } from "../../../platform/d1-write";
import { kindOf } from "../kinds";
import type { QuietHours } from "./local-time";

export const isPersonId = (id: string) => id.startsWith("per_");

/** Who a notification is for, as the delivery code needs them: address, role, zone, quiet hours. */
export interface Recipient {
  id: string;
  kind: "user" | "person";
  email: string | null;
  name: string | null;
  role: Role | null;
  active: boolean;
  timeZone: string;
  quiet: QuietHours | null;
}

/** The workspace's delivery settings: per-kind defaults and chat channels, and mail to people. */
export interface WorkspaceDelivery {
  peopleMode: DeliveryMode;
  kinds: Map<string, typeof notificationKindSettings.$inferSelect>;
}

export async function workspaceDelivery(db: TenantDb): Promise<WorkspaceDelivery> {
  const [ws, kinds] = await Promise.all([
    db.select().from(notificationWorkspaceSettings).limit(1),
    db.select().from(notificationKindSettings),
  ]);
  return { peopleMode: ws[0]?.peopleMode ?? "off", kinds: new Map(kinds.map((k) => [k.kind, k])) };
}

/** Recipients by id (users and people), their settings and their own preferences, in one round trip. */
export async function loadRecipients(db: TenantDb, ids: readonly string[], workspaceZone: string) {
  const wanted = [...new Set(ids)];
  const userIds = wanted.filter((id) => !isPersonId(id));
  const personIds = wanted.filter(isPersonId);
  const [us, settings, ps, prefs] = await Promise.all([
    db
      .select({ id: users.id, email: users.email, name: users.name, role: users.role, status: users.status })
      .from(users)
      .where(inJson(users.id, userIds)),
    db.select().from(notificationUserSettings).where(inJson(notificationUserSettings.userId, userIds)),
    db
      .select({
        id: people.id,
        email: people.email,
        name: people.name,
        status: people.status,
        deletedAt: people.deletedAt,
      })
      .from(people)
      .where(inJson(people.id, personIds)),
    db.select().from(notificationPreferences).where(inJson(notificationPreferences.recipientId, wanted)),
  ]);
  const settingsOf = new Map(settings.map((s) => [s.userId, s]));
  const recipients = new Map<string, Recipient>();
  for (const u of us) {
    const s = settingsOf.get(u.id);
    recipients.set(u.id, {
      id: u.id,
      kind: "user",
      email: u.email,
      name: u.name,
      role: u.role,
      active: u.status === "active",
      timeZone: s?.timeZone ?? workspaceZone,
      quiet: s?.quietStart && s.quietEnd ? { start: s.quietStart, end: s.quietEnd } : null,
    });
  }
  for (const p of ps)
    recipients.set(p.id, {
      id: p.id,
      kind: "person",
      email: p.email,
      name: p.name,
      role: null,
      active: p.status === "active" && p.deletedAt === null,
      timeZone: workspaceZone,
      quiet: null,
    });
  const own = new Map(prefs.map((p) => [`${p.recipientId}|${p.kind}|${p.channel}`, p.mode]));
  return { recipients, own };
}

/**
 * The email mode of `type` for a recipient: their own choice, else the workspace default for the
 * kind, else the kind's default for their role. People who are not users follow the workspace's
 * people setting for kinds that may reach them, unless they unsubscribed. Unknown kinds: off.
 */
export function emailMode(
  r: Recipient,
  type: string,
  own: Map<string, DeliveryMode>,
  ws: WorkspaceDelivery,
): DeliveryMode {
  const k = kindOf(type);
  if (!k || !r.active || !r.email) return "off";
  const chosen = own.get(`${r.id}|${type}|email`);
  if (r.kind === "person") return k.people ? (chosen === "off" ? "off" : ws.peopleMode) : "off";
  if (chosen) return chosen;
  return ws.kinds.get(type)?.emailMode ?? (r.role ? k.email[r.role] : "off");
}

/** The recipient's current mode for one kind (read at send time: an unsubscribe after planning still counts). */
export async function currentMode(db: TenantDb, recipientId: string, type: string) {
  const row = await db
    .select({ mode: notificationPreferences.mode })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.recipientId, recipientId),
        eq(notificationPreferences.kind, type),
        eq(notificationPreferences.channel, sql`'email'`),
      ),
    )
    .get();
  return row?.mode;
}
