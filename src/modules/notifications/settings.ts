import { sealSecret, secretKeyMaterial } from "../../access/sso/secret-box";
import {
  type DeliveryMode,
  notificationKindSettings as ks,
  notificationWorkspaceSettings as wss,
} from "../../db/tenant/notification-delivery";
import type { Bindings, TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { ApiError } from "../../platform/errors";
import { checkOutboundUrl, outboundPolicyFor } from "../../platform/outbound";
import type { ChatProvider } from "./delivery/chat";
import { workspaceDelivery } from "./delivery/recipients";
import { KIND_NAMES, kindOf } from "./kinds";

export interface SettingsCtx {
  db: TenantDb;
  env: Bindings;
  tenantId: string;
  actor: string;
}

/** The workspace's notification settings: mail to people, and per kind its defaults and chat channel. */
export async function getSettings(ctx: Pick<SettingsCtx, "db">) {
  const ws = await workspaceDelivery(ctx.db);
  return {
    peopleMode: ws.peopleMode,
    kinds: KIND_NAMES.map((kind) => {
      const k = kindOf(kind)!;
      const s = ws.kinds.get(kind);
      return {
        kind,
        label: k.label,
        roleDefaults: k.email,
        people: k.people,
        emailMode: s?.emailMode ?? null,
        chat: s?.chatProvider && s.chatUrlHost ? { provider: s.chatProvider, host: s.chatUrlHost } : null,
      };
    }),
  };
}

export interface SettingsPatch {
  peopleMode?: DeliveryMode;
  kinds?: {
    kind: string;
    emailMode?: DeliveryMode | null;
    chat?: { provider: ChatProvider; url: string } | null;
  }[];
}

/**
 * Changes what the patch names. A chat URL is checked with the outbound address rules (a 400 now,
 * not a failed post later) and stored sealed; only its host is ever shown.
 */
export async function updateSettings(ctx: SettingsCtx, patch: SettingsPatch) {
  const at = nowIso();
  const current = await workspaceDelivery(ctx.db);
  const writes = [];
  if (patch.peopleMode)
    writes.push(
      ctx.db
        .insert(wss)
        .values({ id: "workspace", peopleMode: patch.peopleMode, updatedAt: at })
        .onConflictDoUpdate({ target: wss.id, set: { peopleMode: patch.peopleMode, updatedAt: at } }),
    );
  for (const [i, k] of (patch.kinds ?? []).entries()) {
    const before = current.kinds.get(k.kind);
    const next = {
      kind: k.kind,
      emailMode: k.emailMode === undefined ? (before?.emailMode ?? null) : k.emailMode,
      chatProvider: before?.chatProvider ?? null,
      chatUrlSealed: before?.chatUrlSealed ?? null,
      chatUrlHost: before?.chatUrlHost ?? null,
      updatedAt: at,
    };
    if (k.chat === null) Object.assign(next, { chatProvider: null, chatUrlSealed: null, chatUrlHost: null });
    else if (k.chat) {
      const check = checkOutboundUrl(k.chat.url, outboundPolicyFor(ctx.env.ENVIRONMENT));
      if (!check.ok)
        throw new ApiError("validation_failed", `body.kinds.${i}.chat.url: ${check.reason}`, {
          details: [{ path: `body.kinds.${i}.chat.url`, message: check.reason }],
        });
      Object.assign(next, {
        chatProvider: k.chat.provider,
        chatUrlSealed: await sealSecret(secretKeyMaterial(ctx.env), ctx.tenantId, check.url.toString()),
        chatUrlHost: check.url.host,
      });
    }
    writes.push(ctx.db.insert(ks).values(next).onConflictDoUpdate({ target: ks.kind, set: next }));
  }
  await commitWrite({ db: ctx.db, actor: ctx.actor }, { writes });
  return getSettings(ctx);
}
