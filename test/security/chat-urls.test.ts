import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { idempotencyKeys } from "../../src/db/tenant/idempotency";
import { notificationKindSettings } from "../../src/db/tenant/notification-delivery";
import { outbox } from "../../src/db/tenant/outbox";
import { notify, runNotificationDelivery } from "../../src/modules/notifications";
import { redactChatUrl } from "../../src/modules/notifications/delivery/chat";
import { setOutboundTransport } from "../../src/platform/outbound";
import { adminApi, adminSignIn } from "../harness/admin";
import { tenantRecord } from "../harness/maintenance";
import { fetchOpenApi, operationsOf } from "../harness/openapi";
import { userJwt } from "../harness/principals";
import { createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { hostUrl, req, unique } from "./harness";

/**
 * Chat channels (Slack, Microsoft Teams, Google Chat incoming webhooks) are credentials: whoever has
 * the URL may post. Like webhook URLs and secrets, a planted chat URL must never leave its
 * workspace or show up in an answer, a list, an event, the send log, an idempotency record or the
 * admin export; and the address rules refuse an unsafe one when it is saved, before any request.
 * Nothing here reaches the network: every outbound send goes to a recording stub.
 */

const doc = await fetchOpenApi();
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;

interface Post {
  url: string;
  body: string;
}
let posts: Post[] = [];
let undo: (() => void) | undefined;
const record = (answer: (req: Request) => Response | Promise<Response> = () => new Response("ok")) => {
  undo?.();
  posts = [];
  undo = setOutboundTransport(async (request) => {
    posts.push({ url: request.url, body: await request.clone().text() });
    return answer(request);
  });
};
afterEach(() => {
  undo?.();
  undo = undefined;
});

const s = {} as { a: TestTenant; b: TestTenant; aJwt: string; bJwt: string };
beforeAll(async () => {
  s.a = await createTenant({ plan: "enterprise" });
  s.b = await createTenant({ plan: "enterprise" });
  [s.aJwt, s.bJwt] = await Promise.all([userJwt(s.a), userJwt(s.b)]);
});

const settings = (t: TestTenant, jwt: string, body?: unknown, headers?: Record<string, string>) =>
  req<{ kinds: { kind: string; chat: { provider: string; host: string } | null }[] } & Failure>(
    hostUrl(t.slug, "/api/v1/notification-settings"),
    body === undefined ? { auth: { jwt } } : { method: "PATCH", body, auth: { jwt }, headers },
  );

/** One URL per provider, each with a secret part no other text could contain. */
function plantedUrls() {
  const tag = unique("SECRET").replace(/-/g, "");
  return {
    tag,
    slack: `https://hooks.slack.com/services/T0001/B0001/${tag}slack`,
    teams: `https://contoso.webhook.office.com/webhookb2/${tag}teams/IncomingWebhook/abc/def`,
    google: `https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=${tag}google`,
  };
}

const UNSAFE = [
  ["http://hooks.slack.com/services/T/B/x", "only https URLs are allowed"],
  ["https://127.0.0.1/hook", "loopback addresses are not allowed"],
  ["https://2130706433/hook", "loopback addresses are not allowed"],
  ["https://0x7f.0.0.1/hook", "loopback addresses are not allowed"],
  ["https://localhost/hook", "loopback names are not allowed"],
  ["https://chat.localhost/hook", "loopback names are not allowed"],
  ["https://[::1]/hook", "loopback addresses are not allowed"],
  ["https://[::ffff:127.0.0.1]/hook", undefined],
  ["https://10.0.0.7/hook", "private, link-local, multicast and reserved addresses are not allowed"],
  ["https://192.168.1.20/hook", "private, link-local, multicast and reserved addresses are not allowed"],
  ["https://169.254.169.254/latest/meta-data", "private, link-local, multicast and reserved addresses are not allowed"],
  ["https://[fd00::1]/hook", undefined],
  ["https://metadata.google.internal/computeMetadata/v1", "local and internal names are not allowed"],
  ["https://teams.corp.local/hook", "local and internal names are not allowed"],
  ["https://intranet/hook", "single-label (intranet) names are not allowed"],
  ["https://user:pass@hooks.slack.com/services/T/B/x", "URLs with credentials are not allowed"],
  ["ftp://hooks.slack.com/services/T/B/x", "only https URLs are allowed"],
  ["javascript:alert(1)", "only https URLs are allowed"],
  ["not a url", "not a valid absolute URL"],
] as const;

describe("chat URLs and the address rules", () => {
  it.each(["slack", "teams", "google-chat"] as const)(
    "%s: an unsafe URL is a 400 at save naming the field, nothing is stored and no request is sent",
    async (provider) => {
      record();
      for (const [url, reason] of UNSAFE) {
        const res = await settings(s.a, s.aJwt, { kinds: [{ kind: "stock.low", chat: { provider, url } }] });
        expect(res.status, url).toBe(400);
        expect(res.body.details, url).toEqual([
          { path: "body.kinds.0.chat.url", message: reason ?? expect.stringMatching(/not allowed/) },
        ]);
      }
      const after = await settings(s.a, s.aJwt);
      expect(after.body.kinds.find((k) => k.kind === "stock.low")!.chat).toBeNull();
      expect(posts).toEqual([]);
    },
  );
});

describe("a planted chat URL stays in its workspace and is never shown", () => {
  it("answers show only the host; another workspace sees none of it and never posts to it", async () => {
    const urls = plantedUrls();
    record();
    const planted = await settings(
      s.a,
      s.aJwt,
      {
        kinds: [
          { kind: "maintenance.due", chat: { provider: "slack", url: urls.slack } },
          { kind: "request.created", chat: { provider: "teams", url: urls.teams } },
          { kind: "stock.low", chat: { provider: "google-chat", url: urls.google } },
        ],
      },
      { "idempotency-key": unique("plant") },
    );
    expect(planted.status, JSON.stringify(planted.body)).toBe(200);
    expect(JSON.stringify(planted.body)).not.toContain(urls.tag);
    const chatOf = (kinds: typeof planted.body.kinds, kind: string) => kinds.find((k) => k.kind === kind)!.chat;
    expect(chatOf(planted.body.kinds, "maintenance.due")).toEqual({ provider: "slack", host: "hooks.slack.com" });
    expect(chatOf(planted.body.kinds, "request.created")).toEqual({
      provider: "teams",
      host: "contoso.webhook.office.com",
    });
    expect(chatOf(planted.body.kinds, "stock.low")).toEqual({ provider: "google-chat", host: "chat.googleapis.com" });

    // Workspace B: its own settings have no chat channel, and its notifications post nowhere.
    const other = await settings(s.b, s.bJwt);
    expect(other.status).toBe(200);
    expect(other.body.kinds.every((k) => k.chat === null)).toBe(true);
    expect(JSON.stringify(other.body)).not.toContain(urls.tag);
    const same = { kind: "maintenance.due" as const, title: "Maintenance due: pump", message: "Pump P-1 is due." };
    await notify(env, await tenantRecord(s.b), await dbOf(s.b), [{ ...same, to: { userId: s.b.owner.id } }]);
    await runNotificationDelivery(env, await tenantRecord(s.b));
    expect(posts).toEqual([]);

    // Workspace A's notification posts to A's channel, once.
    await notify(env, await tenantRecord(s.a), await dbOf(s.a), [{ ...same, to: { userId: s.a.owner.id } }]);
    await runNotificationDelivery(env, await tenantRecord(s.a));
    await expect.poll(() => posts.map((p) => p.url)).toEqual([urls.slack]);

    // Nowhere in A's or B's readable surface: every list and single read without path parameters.
    for (const [t, jwt] of [
      [s.a, s.aJwt],
      [s.b, s.bJwt],
    ] as const) {
      const reads = operationsOf(doc).filter(
        (o) =>
          o.method === "GET" &&
          o.pathParams.length === 0 &&
          ["data", "jwt"].includes(POLICY[o.operationId]?.access ?? "") &&
          !o.path.endsWith("/realtime"),
      );
      expect(reads.length).toBeGreaterThan(20);
      for (const o of reads) {
        const res = await req(hostUrl(t.slug, o.path), { auth: { jwt } });
        expect(JSON.stringify(res.body), `${o.operationId} of ${t.slug}`).not.toContain(urls.tag);
      }
    }

    // Not in the events, the idempotency records or the tables' readable columns.
    const db = await dbOf(s.a);
    expect(JSON.stringify(await db.select().from(outbox).all())).not.toContain(urls.tag);
    expect(JSON.stringify(await db.select().from(idempotencyKeys).all())).not.toContain(urls.tag);
    const stored = await db.select().from(notificationKindSettings).all();
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.chatUrlSealed).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain(urls.tag);
    }

    // Not in the admin export of the workspace.
    const exported = await adminApi(await adminSignIn(), `/admin/tenants/${s.a.id}/export`);
    expect(exported.status).toBe(200);
    const text = JSON.stringify(exported.body);
    expect(text).toContain("hooks.slack.com");
    expect(text).not.toContain(urls.tag);
    expect(text).not.toContain(stored[0]!.chatUrlSealed!);
  });

  it("a sealed chat URL copied into another workspace's database cannot be opened there: no post", async () => {
    const urls = plantedUrls();
    record();
    const planted = await settings(s.a, s.aJwt, {
      kinds: [{ kind: "maintenance.overdue", chat: { provider: "slack", url: urls.slack } }],
    });
    expect(planted.status).toBe(200);
    const sealed = await (await dbOf(s.a)).select().from(notificationKindSettings).all();
    const row = sealed.find((r) => r.kind === "maintenance.overdue")!;
    // A database row moved to workspace B (a restore gone wrong, a copied backup): sealed for A, it is useless to B.
    await (await dbOf(s.b)).insert(notificationKindSettings).values(row).onConflictDoUpdate({
      target: notificationKindSettings.kind,
      set: row,
    });
    await notify(env, await tenantRecord(s.b), await dbOf(s.b), [
      { kind: "maintenance.overdue", to: { userId: s.b.owner.id }, title: "Overdue: pump", message: "Pump P-2." },
    ]);
    await runNotificationDelivery(env, await tenantRecord(s.b));
    expect(posts).toEqual([]);
    const log = await req<{ items: { channel: string; status: string; lastError: string | null }[] }>(
      hostUrl(s.b.slug, "/api/v1/notification-sends?channel=chat"),
      { auth: { jwt: s.bJwt } },
    );
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]!.status).toBe("pending");
    expect(JSON.stringify(log.body)).not.toContain(urls.tag);
  });

  it("a failing chat never writes its URL into the send log, whatever the error quotes", async () => {
    const urls = plantedUrls();
    // The transport fails quoting the URL it was given; the chat's own answer echoes it as well.
    record((request) => {
      if (request.url.includes("teams")) throw new Error(`connect ECONNREFUSED ${request.url}`);
      return new Response(`no_service: ${request.url}`, { status: 404 });
    });
    const planted = await settings(s.a, s.aJwt, {
      kinds: [
        { kind: "booking.overdue", chat: { provider: "teams", url: urls.teams } },
        { kind: "booking.pickup_due", chat: { provider: "google-chat", url: urls.google } },
      ],
    });
    expect(planted.status).toBe(200);
    await notify(env, await tenantRecord(s.a), await dbOf(s.a), [
      { kind: "booking.overdue", to: { userId: s.a.owner.id }, title: "Booking overdue", message: "Van V-1." },
      { kind: "booking.pickup_due", to: { userId: s.a.owner.id }, title: "Booking starts", message: "Van V-2." },
    ]);
    await runNotificationDelivery(env, await tenantRecord(s.a));
    await expect.poll(() => posts.length).toBeGreaterThanOrEqual(2);
    const chatLog = async () =>
      (
        await req<{ items: { kind: string; status: string; lastError: string | null }[] }>(
          hostUrl(s.a.slug, "/api/v1/notification-sends?channel=chat&limit=100"),
          { auth: { jwt: s.aJwt } },
        )
      ).body.items.filter((i) => i.kind.startsWith("booking."));
    await expect
      .poll(async () => (await chatLog()).map((i) => [i.status, i.lastError !== null]))
      .toEqual([
        ["pending", true],
        ["pending", true],
      ]);
    const text = JSON.stringify(await chatLog());
    expect(text).not.toContain(urls.tag);
    expect(text).toContain("contoso.webhook.office.com");
    expect(text).toContain("chat answered 404");
  });

  it("the redaction keeps the host and drops the path and query, in any message", () => {
    const url = "https://hooks.slack.com/services/T1/B2/zzSECRETzz?x=1";
    expect(redactChatUrl(`network error: fetch ${url} failed`, url)).toBe(
      "network error: fetch hooks.slack.com failed",
    );
    expect(redactChatUrl("echo /services/T1/B2/zzSECRETzz?x=1 back", url)).toBe("echo /… back");
    expect(redactChatUrl("nothing to hide", url)).toBe("nothing to hide");
  });
});
