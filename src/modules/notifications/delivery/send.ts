import { sql } from "drizzle-orm";
import { openSecret, secretKeyMaterial } from "../../../access/sso/secret-box";
import { assets } from "../../../db/tenant/assets";
import { notificationSends as s } from "../../../db/tenant/notification-delivery";
import { notifications as n } from "../../../db/tenant/notifications";
import type { Bindings, TenantDb } from "../../../env";
import { commitWrite } from "../../../events/write";
import { mapBounded } from "../../../platform/bounded";
import { sha256Hex } from "../../../platform/crypto";
import { inJson, updateJsonRows } from "../../../platform/d1-write";
import { hostOrigin, workspaceApiUrl } from "../../../tenancy/host";
import { settingsOf, type TenantRecord } from "../../../tenancy/registry";
import type { StoredNotification as NotificationRow } from "../view";
import { type ChatProvider, chatBody, postToChat } from "./chat";
import { DELIVERY_ACTOR } from "./plan";
import { emailMode, loadRecipients, type Recipient, workspaceDelivery } from "./recipients";
import { type MailItem, renderDigest, renderSingle } from "./render";
import { mailFrom, mailTransportFor } from "./transport";
import { signUnsubscribe } from "./unsubscribe-token";

export type SendRow = typeof s.$inferSelect;

/** Seconds to wait after the n-th failed attempt; the last one repeats (about 3 days in all, then failed). */
export const BACKOFF_SECONDS = [60, 300, 900, 1800, 3600, 7200, 14_400, 21_600];
export const MAX_ATTEMPTS = 18;
/** A claim keeps other consumers off a send while its transport is called. */
const LEASE_MS = 120_000;
const PER_RUN = 50;
const IN_FLIGHT = 6;

export const backoffSeconds = (attempts: number) =>
  BACKOFF_SECONDS[Math.min(attempts, BACKOFF_SECONDS.length) - 1] ?? BACKOFF_SECONDS[0]!;

export interface DeliverOptions {
  /** Only these sends (a Queue message); otherwise every due one, up to the run's cap. */
  ids?: readonly string[];
  now?: Date;
  limit?: number;
}

export interface DeliverResult {
  sent: number;
  retrying: { id: string; delaySeconds: number }[];
  failed: number;
  skipped: number;
}

/** Claims due pending sends (a lease, and the attempt counted) in one statement. */
function claim(db: TenantDb, at: string, ids: readonly string[] | undefined, limit: number) {
  const lease = new Date(Date.parse(at) + LEASE_MS).toISOString();
  return db
    .update(s)
    .set({ claimedUntil: lease, attempts: sql`${s.attempts} + 1`, updatedAt: at })
    .where(
      sql`${s.id} IN (SELECT id FROM ${s} WHERE status = 'pending' AND next_attempt_at <= ${at}
        AND (claimed_until IS NULL OR claimed_until < ${at}) ${ids ? sql`AND ${inJson(s.id, ids)}` : sql``}
        ORDER BY next_attempt_at LIMIT ${limit})`,
    )
    .returning()
    .all();
}

/**
 * Sends what is due: claims the sends, reads their recipients and notifications (a few statements
 * for the whole run), sends each through its channel (a few at a time), and records every outcome
 * in one statement. A failure is recorded and retried with backoff; it never throws out of here
 * for one send, so neither a request nor the cron fails with the transport.
 */
export async function deliverDue(env: Bindings, tenant: TenantRecord, db: TenantDb, opts: DeliverOptions = {}) {
  const now = opts.now ?? new Date();
  const at = now.toISOString();
  const claimed = await claim(db, at, opts.ids, opts.limit ?? PER_RUN);
  const result: DeliverResult = { sent: 0, retrying: [], failed: 0, skipped: 0 };
  if (claimed.length === 0) return result;

  const ctx = await sendContext(env, tenant, db, claimed);
  const outcomes = await mapBounded(claimed, IN_FLIGHT, async (send): Promise<SendRow> => {
    try {
      const out = await deliverOne(ctx, send);
      if (out.skipped) {
        result.skipped++;
        return { ...send, status: "skipped", lastError: out.skipped, claimedUntil: null, updatedAt: at };
      }
      result.sent++;
      return {
        ...send,
        status: "sent",
        subject: out.subject ?? null,
        messageId: out.messageId ?? null,
        lastError: null,
        sentAt: new Date().toISOString(),
        claimedUntil: null,
        updatedAt: at,
      };
    } catch (err) {
      const error = String(err instanceof Error ? err.message : err).slice(0, 500);
      if (send.attempts >= MAX_ATTEMPTS) {
        result.failed++;
        return { ...send, status: "failed", lastError: error, claimedUntil: null, updatedAt: at };
      }
      const delaySeconds = backoffSeconds(send.attempts);
      result.retrying.push({ id: send.id, delaySeconds });
      const next = new Date(now.getTime() + delaySeconds * 1000).toISOString();
      return { ...send, status: "pending", lastError: error, nextAttemptAt: next, claimedUntil: null, updatedAt: at };
    }
  });
  await commitWrite(
    { db, actor: DELIVERY_ACTOR },
    {
      writes: [
        updateJsonRows(
          db,
          s,
          "id",
          ["status", "nextAttemptAt", "claimedUntil", "subject", "messageId", "lastError", "sentAt", "updatedAt"],
          outcomes,
        ),
      ],
    },
  );
  return result;
}

interface SendContext {
  env: Bindings;
  tenant: TenantRecord;
  workspace: string;
  recipients: Map<string, Recipient>;
  modeOf: (r: Recipient, type: string) => string;
  single: Map<string, NotificationRow>;
  digests: Map<string, NotificationRow[]>;
  tags: Map<string, string>;
  chats: Map<string, { provider: ChatProvider; sealed: string }>;
}

const digestKeyOf = (recipientId: string, key: string) => `${recipientId}|${key}`;

async function sendContext(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb,
  claimed: SendRow[],
): Promise<SendContext> {
  const zone = settingsOf(tenant).timezone;
  const singleIds = claimed.filter((c) => !c.digestKey && c.notificationId).map((c) => c.notificationId!);
  const digestPairs = claimed.filter((c) => c.digestKey).map((c) => [c.recipientId, c.digestKey!]);
  const [ws, { recipients, own }, singles, digestRows] = await Promise.all([
    workspaceDelivery(db),
    loadRecipients(
      db,
      claimed.filter((c) => c.recipientKind !== "chat").map((c) => c.recipientId),
      zone,
    ),
    singleIds.length ? db.select().from(n).where(inJson(n.id, singleIds)).all() : Promise.resolve([]),
    digestPairs.length
      ? db
          .select()
          .from(n)
          .where(
            sql`(${n.userId}, ${n.digestKey}) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(digestPairs)}))`,
          )
          .all()
      : Promise.resolve([]),
  ]);
  const digests = new Map<string, NotificationRow[]>();
  for (const row of digestRows) {
    const k = digestKeyOf(row.userId, row.digestKey!);
    digests.set(k, [...(digests.get(k) ?? []), row]);
  }
  const itemIds = [...singles, ...digestRows].map(itemIdOf).filter((id): id is string => !!id);
  const tagRows = itemIds.length
    ? await db
        .select({ id: assets.id, tag: assets.uniqueTag })
        .from(assets)
        .where(inJson(assets.id, [...new Set(itemIds)]))
        .all()
    : [];
  const chats = new Map<string, { provider: ChatProvider; sealed: string }>();
  for (const [kind, k] of ws.kinds)
    if (k.chatProvider && k.chatUrlSealed) chats.set(kind, { provider: k.chatProvider, sealed: k.chatUrlSealed });
  return {
    env,
    tenant,
    workspace: typeof tenant.settings.name === "string" ? tenant.settings.name : tenant.slug,
    recipients,
    modeOf: (r, type) => emailMode(r, type, own, ws),
    single: new Map(singles.map((r) => [r.id, r])),
    digests,
    tags: new Map(tagRows.map((t) => [t.id, t.tag])),
    chats,
  };
}

const itemIdOf = (row: NotificationRow): string | undefined => {
  const d = row.data as Record<string, unknown>;
  const id = d.itemId ?? d.assetId;
  return typeof id === "string" ? id : undefined;
};

interface Outcome {
  skipped?: string;
  subject?: string;
  messageId?: string;
}

async function deliverOne(ctx: SendContext, send: SendRow): Promise<Outcome> {
  if (send.channel === "chat") return deliverChat(ctx, send);
  const r = ctx.recipients.get(send.recipientId);
  if (!r) return { skipped: "recipient no longer exists" };
  if (!r.active) return { skipped: `${r.kind} is deactivated` };
  if (!r.email) return { skipped: "no email address" };
  const transport = mailTransportFor(ctx.env);
  if (!transport) return { skipped: "no mail transport configured" };

  const host = new URL(hostOrigin(ctx.env, ctx.tenant.slug)).hostname;
  let rendered: { subject: string; text: string; html: string };
  let unsubscribe: string;
  let thread: string;
  if (send.digestKey) {
    const items = (ctx.digests.get(digestKeyOf(r.id, send.digestKey)) ?? []).filter(
      (row) => ctx.modeOf(r, row.type) === send.digestKey!.split(":")[0],
    );
    if (items.length === 0) return { skipped: "nothing left in this digest" };
    const digestKind = `digest:${send.digestKey.split(":")[0]}`;
    unsubscribe = await unsubscribeUrl(ctx, r.id, digestKind);
    rendered = renderDigest(
      ctx.workspace,
      send.digestKey,
      await Promise.all(items.map((row) => mailItem(ctx, r.id, row))),
      unsubscribe,
    );
    thread = await sha256Hex(`${r.id}|${digestKind}`);
  } else {
    const row = ctx.single.get(send.notificationId ?? "");
    if (!row) return { skipped: "notification no longer exists" };
    if (ctx.modeOf(r, row.type) === "off") return { skipped: "unsubscribed from this kind" };
    const item = await mailItem(ctx, r.id, row);
    unsubscribe = item.unsubscribeUrl;
    rendered = renderSingle(ctx.workspace, item);
    thread = await sha256Hex(`${r.id}|${row.type}|${threadSubject(row)}`);
  }
  const messageId = `<${send.id}@${host}>`;
  const root = `<thread-${thread.slice(0, 24)}@${host}>`;
  await transport({
    from: mailFrom(ctx.env, ctx.workspace),
    to: { ...(r.name ? { name: r.name } : {}), email: r.email },
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: {
      "Message-ID": messageId,
      "In-Reply-To": root,
      References: root,
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
    },
  });
  return { subject: rendered.subject, messageId };
}

/** What makes mails "the same subject" for threading: the schedule, booking, request, session or asset they are about. */
function threadSubject(row: NotificationRow): string {
  const d = row.data as Record<string, unknown>;
  const id = d.scheduleId ?? d.bookingId ?? d.requestId ?? d.sessionId ?? d.stockItemId ?? d.itemId ?? d.assetId;
  return typeof id === "string" ? id : row.title;
}

async function unsubscribeUrl(ctx: SendContext, recipientId: string, kind: string) {
  const token = await signUnsubscribe(ctx.env.JWT_SECRET, ctx.tenant.id, { recipientId, kind });
  return workspaceApiUrl(ctx.env, ctx.tenant.slug, `/notifications/unsubscribe?token=${token}`);
}

async function mailItem(ctx: SendContext, recipientId: string, row: NotificationRow): Promise<MailItem> {
  const id = itemIdOf(row);
  const tag = id ? ctx.tags.get(id) : undefined;
  return {
    type: row.type,
    title: row.title,
    message: row.message,
    createdAt: row.createdAt,
    link: tag ? `${hostOrigin(ctx.env, ctx.tenant.slug)}/a/${encodeURIComponent(tag)}` : null,
    unsubscribeUrl: await unsubscribeUrl(ctx, recipientId, row.type),
  };
}

async function deliverChat(ctx: SendContext, send: SendRow): Promise<Outcome> {
  const chat = ctx.chats.get(send.kind);
  if (!chat) return { skipped: "no chat channel for this kind any more" };
  const row = ctx.single.get(send.notificationId ?? "");
  if (!row) return { skipped: "notification no longer exists" };
  const url = await openSecret(secretKeyMaterial(ctx.env), ctx.tenant.id, chat.sealed);
  const item = await mailItem(ctx, "", row);
  await postToChat(ctx.env, url, chatBody(chat.provider, ctx.workspace, row.title, row.message, item.link));
  return { subject: row.title };
}
