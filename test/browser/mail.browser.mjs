// A notification mail end to end, looked at in Chromium: a maintenance due today, the cron run on
// the local Worker, the mail received by the local SMTP server (global-setup.mjs), its HTML part
// opened at phone size (screenshot in test-artifacts/browser/), and its link opening the asset's
// label page in the field app.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { request } from "../../scripts/lib/http.mjs";
import { launch, openPage, PHONE, screenshot, worker, workspace } from "./browser.mjs";

let browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function mailsTo(address) {
  const res = await fetch(`${inject("mailCatcherUrl")}/mails`);
  return (await res.json()).filter((m) => m.envelope.to.includes(address));
}

describe("a notification mail in a browser", () => {
  it("arrives at the local SMTP server, reads well on a phone, and its link opens the label page", async () => {
    const ws = await workspace("mail");
    const tag = `LAD-${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    const item = await ws.api("/inventory-items", { method: "POST", body: { name: "Ladder", uniqueTag: tag } });
    expect(item.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const schedule = await ws.api("/maintenance/schedules", {
      method: "POST",
      body: { itemId: item.body.id, title: "Ladder inspection", type: "inspection", nextDueDate: today },
    });
    expect(schedule.status).toBe(201);

    // The cron: the reminder, then its delivery (a workspace day's reminders run once: poll the mail).
    const { port } = worker();
    await expect
      .poll(
        async () => {
          // wrangler's own trigger: the suite serves a prepared bundle (test/browser/prepared.mjs).
          await request(`http://127.0.0.1:${port}/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*`, {
            okStatuses: [200, 500],
          });
          return (await mailsTo(ws.owner.email)).length;
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(1);
    const [mail] = await mailsTo(ws.owner.email);
    expect(mail.subject).toBe(`[${ws.slug}] Maintenance due today: Ladder inspection`);
    expect(mail.text).toContain(`${ws.base}/a/${tag}`);

    const page = await openPage(browser, { viewport: PHONE });
    await page.goto(`${inject("mailCatcherUrl")}/mails/${mail.n}`);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Maintenance due today: Ladder inspection");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const open = page.getByRole("link", { name: "Open in the app" });
    expect(await open.getAttribute("href")).toBe(`${ws.base}/a/${tag}`);
    expect(await page.getByRole("link", { name: "Stop these mails" }).getAttribute("href")).toMatch(
      new RegExp(`^${ws.base}/api/v1/notifications/unsubscribe\\?token=`),
    );
    await screenshot(page, "notification-mail-phone");

    await open.click();
    // The navigation to the label page, not its `load`: this browser is not signed in, and the app
    // goes on to its sign-in page (`next` = the label) as soon as its session check answers, which
    // on a busy machine can be before the first page's `load` fires.
    await page.waitForURL(`${ws.base}/a/${tag}`, { waitUntil: "commit" });
    const labelPath = () => {
      const url = new URL(page.url());
      return url.searchParams.get("next") ?? url.pathname;
    };
    await expect.poll(labelPath).toBe(`/a/${tag}`);
    expect(page.offsite).toEqual([]);
    await page.context().close();
  });
});
