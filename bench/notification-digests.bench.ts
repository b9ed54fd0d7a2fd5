// Notification digest benchmark: `npx vitest run --config bench/vitest.notifications.config.ts`
// (see bench/README.md). Runs in workerd against a real local D1, like the tests.
//
// One workspace with PEOPLE users (10,000), each with ITEMS due maintenance notifications (3), not
// yet planned, as a day of reminders leaves them. Measured: the notification cron's work (plan,
// digests, send) until every mail is out, its wall time, cron runs (each bounded at 10 s), and D1
// statements per mail, counted by the same counter as the API's `x-d1-*` headers. The transport
// accepts each mail at once (the SMTP round trip is the provider's, not ours), and the queue is
// left out, so the cron sends everything itself (the queue-down worst case). Baseline: the same
// notifications mailed `immediate` (one mail per notification), as before digests existed.
import { env } from "cloudflare:workers";
import { afterAll, it } from "vitest";
import { notificationKindSettings } from "../src/db/tenant/notification-delivery";
import { notifications } from "../src/db/tenant/notifications";
import { users } from "../src/db/tenant/users";
import type { Bindings } from "../src/env";
import { countedEnv, type D1Counter } from "../src/http/d1-counter";
import { runNotificationDelivery } from "../src/modules/notifications";
import { setMailTransport } from "../src/modules/notifications/delivery/transport";
import { chunk } from "../src/platform/d1";
import { insertJsonRows } from "../src/platform/d1-write";
import { newId } from "../src/platform/ids";
import { tenantRecord } from "../test/harness/maintenance";
import { createTenant, type TestTenant } from "../test/harness/tenant";
import { dbOf } from "../test/harness/tenant-db";

const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const ITEMS = Number(process.env.ITEMS ?? 3);
const rows: string[] = [];

async function seed(t: TestTenant, mode: "daily" | "immediate") {
  const db = await dbOf(t);
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const ids = Array.from({ length: PEOPLE }, () => newId("user"));
  for (const part of chunk(ids, 500))
    await insertJsonRows(
      db,
      users,
      part.map((id) => ({
        id,
        email: `${id}@bench.example.com`,
        name: null,
        role: "member" as const,
        status: "active" as const,
        passwordHash: null,
        lastLoginAt: null,
        createdAt: at,
        updatedAt: at,
      })),
    ).run();
  const all = ids.flatMap((userId) =>
    Array.from({ length: ITEMS }, (_, i) => ({
      id: newId("notification"),
      userId,
      type: "maintenance.due",
      title: `Maintenance due: check ${i + 1}`,
      message: `Asset ${i + 1} is due.`,
      data: {},
      readAt: null,
      createdAt: at,
      updatedAt: at,
    })),
  );
  for (const part of chunk(all, 500)) await insertJsonRows(db, notifications, part).run();
  await db.insert(notificationKindSettings).values({ kind: "maintenance.due", emailMode: mode, updatedAt: at }).run();
}

async function measure(mode: "daily" | "immediate") {
  const t = await createTenant();
  await seed(t, mode);
  const tenant = await tenantRecord(t);
  let mails = 0;
  const restore = setMailTransport(async () => {
    mails++;
  });
  const n: D1Counter = { statements: 0, roundTrips: 0 };
  // The queue is left out: the cron does every send itself, as when the queue is down (the worst case).
  const noQueue = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
  const counted = { ...countedEnv(env as Bindings, n), NOTIFICATIONS: noQueue };
  // Digests are due when the recipients' day ends: the cron runs after that.
  const now = mode === "daily" ? new Date(Date.now() + 26 * 3_600_000) : new Date();
  const started = Date.now();
  let runs = 0;
  // The first run plans at "now" and later ones send; each run is one cron invocation's budget.
  for (; runs < 1000; runs++) {
    const out = await runNotificationDelivery(counted, tenant, {
      now: runs === 0 && mode === "daily" ? new Date() : now,
    });
    if (runs > 0 && out.planned === 0 && out.digests === 0 && out.sent === 0) break;
  }
  const ms = Date.now() - started;
  restore();
  rows.push(
    `| ${mode === "daily" ? "daily digest" : "immediate (baseline)"} | ${PEOPLE.toLocaleString("en")} | ${(PEOPLE * ITEMS).toLocaleString("en")} | ${mails.toLocaleString("en")} | ${(ms / 1000).toFixed(1)} s | ${runs} | ${n.statements.toLocaleString("en")} | ${(n.statements / Math.max(mails, 1)).toFixed(3)} |`,
  );
}

it(`digests of ${PEOPLE} people with ${ITEMS} due items each`, { timeout: 1_800_000 }, async () => {
  await measure("daily");
  await measure("immediate");
});

afterAll(() => {
  console.log(
    [
      "| mode | people | notifications | mails | cron work | cron runs | D1 statements | statements per mail |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
  );
});
