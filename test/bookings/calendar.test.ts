import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { bookings } from "../../src/db/tenant/bookings";
import type { CalendarFeed } from "../../src/modules/calendar";
import type { Page } from "../../src/platform/pagination";
import { book, inDays, newAsset, newPerson } from "../harness/bookings-helpers";
import { createUser, userJwt } from "../harness/principals";
import { api, call, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

type CreatedFeed = CalendarFeed & { url: string };

/** iCalendar date-times have whole seconds. */
const toSecond = (iso: string) => `${iso.slice(0, 19)}.000Z`;

async function feed(t: TestTenant, jwt: string, body: { personId?: string; name?: string } = {}) {
  const res = await api<CreatedFeed>(t, "/calendar-feeds", { body, auth: { jwt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Fetches a feed exactly as a calendar app does: the URL alone, no Authorization header. */
const fetchFeed = (url: string) => call<string>(url, { auth: null });

/** Parses with ical.js (an independent RFC 5545 parser) and returns the events by UID. */
function parse(text: string) {
  const component = new ICAL.Component(ICAL.parse(text));
  expect(component.name).toBe("vcalendar");
  expect(component.getFirstPropertyValue("version")).toBe("2.0");
  const events = component.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
  return { name: component.getFirstPropertyValue("x-wr-calname"), events: new Map(events.map((e) => [e.uid, e])) };
}

describe("calendar feeds", () => {
  it("serves the workspace's bookings as RFC 5545 that ical.js parses, with text escaped and long lines folded", async () => {
    const t = await createTenant();
    const ada = await newPerson(t, "Ada Lovelace");
    const bob = await newPerson(t, "Bob Ørsted");
    const camera = await newAsset(t, "Camera; the good one, with \\ lens");
    const tripod = await newAsset(t, `Tripod ${"é".repeat(60)}`);
    const notes = "Shoot at the pier,\nbring batteries; and the ND filter";
    const one = await book(t, {
      personId: ada.id,
      assetIds: [camera.id, tripod.id],
      startsAt: inDays(1),
      endsAt: inDays(2),
      notes,
    });
    const two = await book(t, { personId: bob.id, assetIds: [camera.id], startsAt: inDays(3), endsAt: inDays(4) });
    const gone = await book(t, { personId: bob.id, assetIds: [tripod.id], startsAt: inDays(5), endsAt: inDays(6) });
    expect((await api(t, `/bookings/${gone.body.id}/cancel`, { method: "POST" })).status).toBe(200);

    const created = await feed(t, await userJwt(t));
    expect(created).toMatchObject({ name: "Workspace bookings", personId: null, lastUsedAt: null });
    expect(created.url).toMatch(new RegExp(`^${t.base}/calendar/ical_[A-Za-z0-9_-]+\\.ics$`));

    const res = await fetchFeed(created.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("private");
    const text = res.body;
    // CRLF line ends, and no line over 75 octets (folded).
    expect(text.endsWith("\r\n")).toBe(true);
    for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(text).toContain("\r\n "); // the long summary was folded

    const parsed = parse(text);
    expect(parsed.name).toBe("Workspace bookings");
    expect([...parsed.events.keys()].sort()).toEqual(
      [one.body.id, two.body.id, gone.body.id].map((id) => `${id}@bookings`).sort(),
    );
    const first = parsed.events.get(`${one.body.id}@bookings`)!;
    expect(first.summary).toBe(`Camera; the good one, with \\ lens, Tripod ${"é".repeat(60)} — Ada Lovelace`);
    expect(first.description).toContain(notes);
    expect(first.startDate.toJSDate().toISOString()).toBe(toSecond(one.body.startsAt));
    expect(first.endDate.toJSDate().toISOString()).toBe(toSecond(one.body.endsAt));
    expect(first.component.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(first.component.getFirstPropertyValue("url")).toBe(`${t.base}/bookings/${one.body.id}`);
    expect(parsed.events.get(`${gone.body.id}@bookings`)!.component.getFirstPropertyValue("status")).toBe("CANCELLED");

    // Every change raises SEQUENCE by one, two changes within the same second included, so calendar
    // apps take the new time (a revision counter, not the seconds since creation).
    const sequenceOf = async (id: string) => parse((await fetchFeed(created.url)).body).events.get(`${id}@bookings`)!;
    expect(Number(parsed.events.get(`${two.body.id}@bookings`)!.sequence)).toBe(0);
    const patch = (body: object) => api(t, `/bookings/${two.body.id}`, { method: "PATCH", body });
    expect((await patch({ endsAt: inDays(5) })).status).toBe(200);
    expect((await patch({ notes: "moved twice" })).status).toBe(200);
    const moved = await sequenceOf(two.body.id);
    expect(Number(moved.sequence)).toBe(2);
    expect(moved.endDate.toJSDate().getTime()).toBeGreaterThan(Date.now() + 4.9 * 86_400_000);
    expect(Number((await sequenceOf(gone.body.id)).sequence)).toBe(1); // cancelled once

    // The feed records its use.
    const listed = await api<Page<CalendarFeed>>(t, "/calendar-feeds", { auth: { jwt: await userJwt(t) } });
    expect(listed.body.items.map((f) => f.id)).toEqual([created.id]);
    expect(listed.body.items[0]!.lastUsedAt).toMatch(/T\d\d:00:00\.000Z$/); // hour precision, as documented
    expect(JSON.stringify(listed.body)).not.toContain("ical_");
  });

  it("every write of a booking bumps its revision, whoever writes it (the trigger), once per statement", async () => {
    const t = await createTenant();
    const ada = await newPerson(t);
    const a = await newAsset(t);
    const b = await book(t, { personId: ada.id, assetIds: [a.id], startsAt: inDays(0.001), endsAt: inDays(1) });
    const db = await dbOf(t);
    const revision = async () =>
      (await db.select({ r: bookings.revision }).from(bookings).where(eq(bookings.id, b.body.id)).get())!.r;
    expect(await revision()).toBe(0);
    expect((await api(t, `/bookings/${b.body.id}/pick-up`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/bookings/${b.body.id}/return`, { method: "POST", body: {} })).status).toBe(200);
    expect(await revision()).toBe(2);
    // A writer that forgets the counter (here a raw UPDATE) still bumps it; one that sets it is kept.
    await db.update(bookings).set({ notes: "raw" }).where(eq(bookings.id, b.body.id)).run();
    expect(await revision()).toBe(3);
    await db.update(bookings).set({ notes: "set", revision: 10 }).where(eq(bookings.id, b.body.id)).run();
    expect(await revision()).toBe(10);
  });

  it("a person's feed shows only their bookings", async () => {
    const t = await createTenant();
    const ada = await newPerson(t, "Ada Lovelace");
    const bob = await newPerson(t, "Bob Stone");
    const a = await newAsset(t);
    const mine = await book(t, { personId: ada.id, assetIds: [a.id], startsAt: inDays(1), endsAt: inDays(2) });
    await book(t, { personId: bob.id, assetIds: [a.id], startsAt: inDays(3), endsAt: inDays(4) });
    const f = await feed(t, await userJwt(t), { personId: ada.id, name: "Ada's gear" });
    expect(f).toMatchObject({ personId: ada.id, name: "Ada's gear" });
    const parsed = parse((await fetchFeed(f.url)).body);
    expect([...parsed.events.keys()]).toEqual([`${mine.body.id}@bookings`]);
  });

  it("is revocable, dies with its user, is never reached through another feed's or workspace's URL, and validates input", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const member = await createUser(t, "member");
    const f = await feed(t, member.jwt);
    expect((await fetchFeed(f.url)).status).toBe(200);

    // Another workspace's host does not serve this workspace's feed.
    expect((await fetchFeed(f.url.replace(t.base, other.base))).status).toBe(404);
    // A guessed or altered secret, or any other file name, is 404.
    expect((await fetchFeed(f.url.replace(/ical_.{4}/, "ical_AAAA"))).status).toBe(404);
    expect((await fetchFeed(`${t.base}/calendar/nope.ics`)).status).toBe(404);

    // Only its owner revokes it (another user's DELETE is 404), then the URL is dead.
    const someone = await createUser(t, "admin");
    expect((await api(t, `/calendar-feeds/${f.id}`, { method: "DELETE", auth: { jwt: someone.jwt } })).status).toBe(
      404,
    );
    expect((await api(t, `/calendar-feeds/${f.id}`, { method: "DELETE", auth: { jwt: member.jwt } })).status).toBe(204);
    expect((await fetchFeed(f.url)).status).toBe(404);

    // A deactivated user's feeds stop answering.
    const g = await feed(t, member.jwt);
    const off = await api(t, `/users/${member.id}`, {
      method: "PATCH",
      body: { status: "deactivated" },
      auth: { jwt: await userJwt(t) },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await fetchFeed(g.url)).status).toBe(404);
    // ...and stay dead after a reactivation, as old JWTs do.
    const on = await api(t, `/users/${member.id}`, {
      method: "PATCH",
      body: { status: "active" },
      auth: { jwt: await userJwt(t) },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect((await fetchFeed(g.url)).status).toBe(404);
    const fresh = await feed(t, await userJwt(t, member));
    expect((await fetchFeed(fresh.url)).status).toBe(200);

    // Bad input: unknown person 400, unknown field 400; API keys cannot make feeds (403).
    const bad = await api<Failure>(t, "/calendar-feeds", {
      body: { personId: "per_nope" },
      auth: { jwt: await userJwt(t) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]!.path).toBe("body.personId");
    expect((await api(t, "/calendar-feeds", { body: { color: "red" }, auth: { jwt: await userJwt(t) } })).status).toBe(
      400,
    );
    expect((await api(t, "/calendar-feeds", { body: {} })).status).toBe(403);
  });
});
