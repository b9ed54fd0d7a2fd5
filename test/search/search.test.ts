import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Person } from "../../src/modules/people";
import type { SearchResults } from "../../src/modules/search";
import type { Session } from "../../src/modules/sessions";
import type { ErrorBody } from "../../src/platform/schemas";
import { userJwt } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/** GET /search as the owner (search is JWT only). */
async function search<T = SearchResults>(t: TestTenant, q: string, extra = "") {
  return api<T>(t, `/search?q=${encodeURIComponent(q)}${extra}`, { auth: { jwt: await userJwt(t) } });
}

async function asset(t: TestTenant, body: Record<string, unknown>) {
  const res = await api<InventoryItem>(t, "/inventory-items", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function person(t: TestTenant, body: Record<string, unknown>) {
  const res = await api<Person>(t, "/people", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe("GET /search", () => {
  it("groups results across assets, people and sessions, ranked, with prefix matching", async () => {
    const t = await createTenant();
    const short = await asset(t, { name: "Laptop" });
    const long = await asset(t, { name: "Old laptop charger cable for the meeting room" });
    const byModel = await asset(t, { name: "Docking station", model: "Laptop dock" });
    await asset(t, { name: "Monitor" });
    const dell = await asset(t, { name: "Dell Latitude 5440", serialNumber: "CN-0X1234" });
    const ada = await person(t, { name: "Ada Lovelace", email: "ada@example.com", employeeNumber: "E-1815" });
    const session = await api<Session>(t, "/sessions", { body: { name: "Laptop audit spring" } });
    expect(session.status).toBe(201);

    const res = await search(t, "laptop");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["assets", "licenceProducts", "people", "sessions", "stockItems"]);
    // bm25: the name column weighs most and short names beat long ones; the model-only hit is last.
    expect(ids(res.body.assets)).toEqual([short.id, long.id, byModel.id]);
    expect(res.body.assets[0]).toMatchObject({ name: "Laptop", exactMatch: false, status: "available" });
    expect(ids(res.body.sessions)).toEqual([session.body.id]);
    expect(res.body.people).toEqual([]);

    // Prefixes of every term, all terms required, any column.
    expect(ids((await search(t, "lap")).body.assets)).toEqual([short.id, long.id, byModel.id]);
    expect(ids((await search(t, "dell lat")).body.assets)).toEqual([dell.id]);
    expect(ids((await search(t, "cn-0x12")).body.assets)).toEqual([dell.id]);
    expect(ids((await search(t, "dell monitor")).body.assets)).toEqual([]);
    const people = await search(t, "lovel");
    expect(people.body.people).toEqual([
      { id: ada.id, name: "Ada Lovelace", email: "ada@example.com", employeeNumber: "E-1815", status: "active" },
    ]);
    expect(ids((await search(t, "ada@exa")).body.people)).toEqual([ada.id]);
    expect(ids((await search(t, "e-1815")).body.people)).toEqual([ada.id]);
    expect(ids((await search(t, "spring")).body.sessions)).toEqual([session.body.id]);
  });

  it("puts an exact unique-tag or serial-number match first", async () => {
    const t = await createTenant();
    // Names full of the tag's tokens outrank the tagged asset on bm25 alone.
    const noisy = await asset(t, { name: "SRV 100 SRV 100 spare for SRV-100" });
    const tagged = await asset(t, { name: "Rack server", uniqueTag: "SRV-100" });
    const serial = await asset(t, { name: "Switch", uniqueTag: "NET-7", serialNumber: "srv-100" });
    const res = await search(t, "srv-100");
    expect(res.status).toBe(200);
    expect(ids(res.body.assets)).toEqual([tagged.id, serial.id, noisy.id]);
    expect(res.body.assets.map((a: { exactMatch: boolean }) => a.exactMatch)).toEqual([true, true, false]);
    // Case-insensitive, and an exact serial is found even when it has no searchable token.
    const symbols = await asset(t, { name: "Odd serial", serialNumber: "--" });
    const odd = await search(t, "--");
    expect(ids(odd.body.assets)).toEqual([symbols.id]);
    expect(ids((await search(t, "Srv-100", "&limit=1")).body.assets)).toEqual([tagged.id]);
  });

  it("is kept current by writes: updates, soft deletes, restores and hard deletes", async () => {
    const t = await createTenant();
    const a = await asset(t, { name: "Projector Epson" });
    const p = await person(t, { name: "Grace Hopper" });
    expect(ids((await search(t, "projector")).body.assets)).toEqual([a.id]);

    expect((await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { name: "Beamer Epson" } })).status).toBe(
      200,
    );
    expect(ids((await search(t, "projector")).body.assets)).toEqual([]);
    expect(ids((await search(t, "beamer")).body.assets)).toEqual([a.id]);

    expect((await api(t, `/inventory-items/${a.id}`, { method: "DELETE" })).status).toBe(204);
    expect(ids((await search(t, "beamer")).body.assets)).toEqual([]);
    expect(ids((await search(t, a.uniqueTag)).body.assets)).toEqual([]);
    expect((await api(t, `/inventory-items/${a.id}/restore`, { method: "POST" })).status).toBe(200);
    expect(ids((await search(t, "beamer")).body.assets)).toEqual([a.id]);

    expect((await api(t, `/people/${p.id}`, { method: "DELETE" })).status).toBe(204);
    expect(ids((await search(t, "grace")).body.people)).toEqual([]);

    const s = (await api<Session>(t, "/sessions", { body: { name: "Quarterly count" } })).body;
    expect(ids((await search(t, "quarterly")).body.sessions)).toEqual([s.id]);
    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { name: "Yearly count" } })).status).toBe(200);
    expect(ids((await search(t, "quarterly")).body.sessions)).toEqual([]);
    expect(ids((await search(t, "yearly")).body.sessions)).toEqual([s.id]);
    expect((await api(t, `/sessions/${s.id}`, { method: "DELETE" })).status).toBe(204);
    expect(ids((await search(t, "yearly")).body.sessions)).toEqual([]);
  });

  it("treats FTS syntax in q as text, never as a query error", async () => {
    const t = await createTenant();
    const a = await asset(t, { name: 'Cable "HDMI" 2m (spare)', model: "name:x" });
    for (const q of [
      '"',
      'cable"',
      "hdmi AND",
      "OR",
      "NOT cable",
      "*",
      "cab*",
      "(spare",
      "NEAR(cable hdmi)",
      "name:x",
      "model:",
      "^cable",
      "-",
      "a + b",
      "{x y}",
      "'",
      "\\",
      "%_",
      "ünïcödé",
      "🙂",
    ]) {
      const res = await search(t, q);
      expect(res.status, `q=${q}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(ids((await search(t, '"hdmi"')).body.assets)).toEqual([a.id]);
    expect(ids((await search(t, "(spare)")).body.assets)).toEqual([a.id]);
    expect(ids((await search(t, "name:x")).body.assets)).toEqual([a.id]);
  });

  it("validates q and limit, and limits each group", async () => {
    const t = await createTenant();
    for (let i = 0; i < 12; i++) await asset(t, { name: `Chair ${i}` });
    expect((await search(t, "chair")).body.assets).toHaveLength(10);
    expect((await search(t, "chair", "&limit=3")).body.assets).toHaveLength(3);
    expect((await search(t, "chair", "&limit=25")).body.assets).toHaveLength(12);
    for (const extra of ["&limit=26", "&limit=0"]) expect((await search(t, "chair", extra)).status).toBe(400);
    for (const q of ["", "   ", "x".repeat(101)]) {
      const res = await search<ErrorBody>(t, q);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect((await search(t, "x".repeat(100))).status).toBe(200);
    const missing = await api(t, "/search", { auth: { jwt: await userJwt(t) } });
    expect(missing.status).toBe(400);
  });

  it("is JWT only: an API key gets 403, no credentials 401", async () => {
    const t = await createTenant();
    const key = await api<ErrorBody>(t, "/search?q=x");
    expect(key.status).toBe(403);
    expect(key.body.code).toBe("forbidden");
    expect((await api(t, "/search?q=x", { auth: null })).status).toBe(401);
  });

  it("never shows another workspace's rows", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await asset(a, { name: "Secret prototype" });
    expect((await search(b, "secret")).body.assets).toEqual([]);
  });
});
