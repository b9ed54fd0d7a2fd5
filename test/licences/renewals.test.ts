import { env } from "cloudflare:workers";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { type LicenceLot, runLicenceReminders } from "../../src/modules/licences";
import type { Page } from "../../src/platform/pagination";
import { newLot, newProduct } from "../harness/licence-fixtures";
import { tenantRecord } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { createUser } from "../harness/principals";
import { api, call, createTenant } from "../harness/tenant";

const at = (day: string) => new Date(`${day}T12:00:00Z`);
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

describe("licence renewals", () => {
  it("lists terms ending in the window, soonest first, with the cost per currency", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const soon = await newLot(t, product.id, { cost: 120, currency: "EUR", endDate: plusDays(10) });
    const later = await newLot(t, product.id, {
      cost: 80.5,
      currency: "EUR",
      endDate: plusDays(40),
      renewal: "annual",
      autoRenew: true,
    });
    const usd = await newLot(t, product.id, { cost: 1000, currency: "JPY", endDate: plusDays(20) });
    await newLot(t, product.id, { endDate: plusDays(200) }); // outside the window
    await newLot(t, product.id); // perpetual
    const res = await api<Page<LicenceLot & { reminderDate: string }> & { totals: unknown[] }>(
      t,
      "/licence-renewals?days=60",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((l) => l.id)).toEqual([soon.id, usd.id, later.id]);
    expect(res.body.items[0]!.reminderDate).toBe(plusDays(10 - 30));
    expect(res.body.totals).toEqual([
      { currency: "EUR", costMinor: 20050, cost: 200.5, lots: 2 },
      { currency: "JPY", costMinor: 1000, cost: 1000, lots: 1 },
    ]);
    expect((await api(t, "/licence-renewals?days=0")).status).toBe(400);
    expect(today() <= res.body.items[0]!.endDate!).toBe(true);
  });

  it("reminds at the notice period and at the end, once each, across month ends and leap days", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const record = await tenantRecord(t);
    const product = await newProduct(t, { name: "Design Suite" });
    // Ends on the leap day; 29 days' notice lands on the last day of January.
    const leap = await newLot(t, product.id, { endDate: "2028-02-29", noticeDays: 29 });
    // Monthly, renewing itself, ending on the 31st: renews to the leap day, then back to the 31st.
    const monthly = await newLot(t, product.id, {
      startDate: "2028-01-01",
      endDate: "2028-01-31",
      renewal: "monthly",
      autoRenew: true,
      noticeDays: 0,
    });

    const run = (day: string) => runLicenceReminders(env, record, at(day));
    const events = async (type: string) =>
      (await outboxRows(t))
        .filter((e) => e.type === type)
        .map((e) => [e.subjectId, (e.payload as { endDate: string }).endDate]);

    await run("2028-01-30");
    expect(await events("licence.renewal_due")).toEqual([]);
    await run("2028-01-31");
    // One run's events share a batch (their order within it is not the point): by end date.
    expect((await events("licence.renewal_due")).sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [monthly.id, "2028-01-31"],
      [leap.id, "2028-02-29"],
    ]);
    await run("2028-01-31"); // a second run the same day: nothing twice
    expect(await events("licence.renewal_due")).toHaveLength(2);

    // The day after the end: the monthly term renews to the leap day, counted from the 31st.
    await run("2028-02-01");
    expect(await events("licence.renewed")).toEqual([[monthly.id, "2028-02-29"]]);
    await run("2028-02-29");
    expect(await events("licence.renewal_due")).toContainEqual([monthly.id, "2028-02-29"]);
    expect(await events("licence.expired")).toEqual([]);
    await run("2028-03-01");
    expect(await events("licence.expired")).toEqual([[leap.id, "2028-02-29"]]);
    expect(await events("licence.renewed")).toEqual([
      [monthly.id, "2028-02-29"],
      [monthly.id, "2028-03-31"],
    ]);
    // A run skipped for months: the term lands on the right month end, not drifted to the 29th.
    await run("2028-07-15");
    expect((await events("licence.renewed")).at(-1)).toEqual([monthly.id, "2028-07-31"]);
    expect(await events("licence.expired")).toHaveLength(1);

    const notes = (await outboxRows(t)).find((e) => e.type === "licence.expired")!.payload as { recipients: string[] };
    expect(notes.recipients).toEqual([t.owner.id, admin.id].sort());
  });

  it("an annual term ending on a leap day renews to February 28, and back to the 29th four years on", async () => {
    const t = await createTenant();
    const record = await tenantRecord(t);
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { endDate: "2028-02-29", renewal: "annual", autoRenew: true });
    await runLicenceReminders(env, record, at("2028-03-01"));
    expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body).toMatchObject({
      startDate: "2028-03-01",
      endDate: "2029-02-28",
    });
    await runLicenceReminders(env, record, at("2031-06-01"));
    expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body.endDate).toBe("2032-02-29");
  });

  it("serves renewal dates as an iCalendar feed that ical.js parses", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const product = await newProduct(t, { name: "Office, Suite; Pro" });
    const lot = await newLot(t, product.id, { endDate: plusDays(30), cost: 99.99, currency: "EUR", noticeDays: 14 });
    const feed = await api<{ url: string; id: string }>(t, "/licence-renewal-feeds", {
      body: {},
      auth: { jwt: admin.jwt },
    });
    expect(feed.status, JSON.stringify(feed.body)).toBe(201);
    expect(feed.body.url).toMatch(new RegExp(`^${t.base}/licence-renewals/lical_[A-Za-z0-9_-]+\\.ics$`));
    const res = await call<string>(feed.body.url, { auth: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/calendar");
    const component = new ICAL.Component(ICAL.parse(res.body));
    const events = component.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(1);
    expect(events[0]!.summary).toBe("Ends: Office, Suite; Pro");
    expect(events[0]!.uid).toBe(`${lot.id}-${plusDays(30)}@licences`);
    expect(events[0]!.startDate.toJSDate().toISOString().slice(0, 10)).toBe(plusDays(30));
    expect(events[0]!.description).toContain(`Notice from ${plusDays(16)}`);
    // Revoked: 404.
    expect(
      (await api(t, `/licence-renewal-feeds/${feed.body.id}`, { method: "DELETE", auth: { jwt: admin.jwt } })).status,
    ).toBe(204);
    const gone = await call(feed.body.url, { auth: null });
    expect(gone.status).toBe(404);
  });
});
