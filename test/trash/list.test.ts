import { describe, expect, it } from "vitest";
import type { TrashEntry } from "../../src/modules/trash";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser } from "../harness/principals";
import { insertAsset, insertPerson, trashed } from "../harness/rows";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";

const created = (res: { status: number; body: { id: string } }) => {
  expect(res.status).toBe(201);
  return res.body.id;
};

async function createAndDelete(t: TestTenant, path: string, body: unknown): Promise<string> {
  const id = created(await api<{ id: string }>(t, path, { body }));
  expect((await api(t, `${path}/${id}`, { method: "DELETE" })).status).toBe(204);
  return id;
}

/** Every page of `/trash?<query>` with `limit`, in order. */
async function walk(t: TestTenant, query: string, limit: number) {
  const seen: TrashEntry[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const res: CallResult<Page<TrashEntry>> = await api(
      t,
      `/trash?limit=${limit}${query ? `&${query}` : ""}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error("pagination did not end");
}

describe("GET /trash", () => {
  it("lists deleted items of every type, newest deletion first, and never live ones", async () => {
    const t = await createTenant();
    expect((await api(t, "/trash")).body).toEqual({ items: [], nextCursor: null });

    const asset = await insertAsset(t, trashed("2020-01-01T00:00:01.000Z", "usr_someone"));
    const person = await insertPerson(t, trashed("2020-01-01T00:00:02.000Z"));
    await insertAsset(t); // live
    await insertPerson(t); // live
    const category = await createAndDelete(t, "/categories", { name: "Old printers" });
    const location = await createAndDelete(t, "/locations", { name: "Closed office" });
    const field = await createAndDelete(t, "/custom-fields", {
      entity: "asset",
      key: "costCenter",
      label: "Cost center",
      type: "text",
    });

    const res = await api<Page<TrashEntry>>(t, "/trash");
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const items = res.body.items;
    // The three deleted through the API just now come first (in deletion order, ties by id), then the older two.
    expect(
      items
        .map((i) => i.id)
        .slice(0, 3)
        .sort(),
    ).toEqual([field, location, category].sort());
    expect(items.map((i) => [i.type, i.id]).slice(3)).toEqual([
      ["person", person.id],
      ["asset", asset.id],
    ]);
    const keys = items.map((i) => `${i.deletedAt}|${i.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    const fieldItem = items.find((i) => i.id === field);
    expect(fieldItem).toEqual({
      type: "custom_field",
      id: field,
      name: "Cost center",
      deletedAt: expect.any(String),
      deletedBy: expect.stringMatching(/^key_/),
    });
    expect(items[3]).toMatchObject({ name: person.name, deletedAt: "2020-01-01T00:00:02.000Z" });
    expect(items[4]).toEqual({
      type: "asset",
      id: asset.id,
      name: asset.name,
      deletedAt: "2020-01-01T00:00:01.000Z",
      deletedBy: "usr_someone",
    });
  });

  it("filters by one or several types; an unknown type is a 400 naming it", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t, trashed());
    const person = await insertPerson(t, trashed());
    const category = await createAndDelete(t, "/categories", { name: "Gone" });

    const assetsOnly = await api<Page<TrashEntry>>(t, "/trash?type=asset");
    expect(assetsOnly.body.items.map((i) => i.id)).toEqual([asset.id]);
    const two = await api<Page<TrashEntry>>(t, "/trash?type=person,%20category");
    expect(two.status).toBe(200);
    expect(two.body.items.map((i) => i.id).sort()).toEqual([person.id, category].sort());

    for (const bad of ["bogus", "asset,bogus", ",", "assets"]) {
      const res = await api<ErrorBody>(t, `/trash?type=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.details).toEqual([expect.objectContaining({ path: "query.type" })]);
    }
    expect((await api(t, "/trash?type=asset&limit=0")).status).toBe(400);
    expect((await api(t, "/trash?cursor=not-a-cursor")).status).toBe(400);
  });

  it("pages through ties on deletedAt across tables without gaps or repeats", async () => {
    const t = await createTenant();
    const same = "2026-02-01T10:00:00.000Z";
    const rows = [
      ...(await Promise.all([0, 1, 2].map(() => insertAsset(t, trashed(same))))).map((r) => ({
        type: "asset",
        id: r.id,
        at: same,
      })),
      ...(await Promise.all([0, 1].map(() => insertPerson(t, trashed(same))))).map((r) => ({
        type: "person",
        id: r.id,
        at: same,
      })),
      ...(await Promise.all([1, 2, 3].map((d) => insertAsset(t, trashed(`2026-02-0${d + 1}T09:00:00.000Z`))))).map(
        (r) => ({ type: "asset", id: r.id, at: r.deletedAt! }),
      ),
      ...(await Promise.all([1, 5].map((d) => insertPerson(t, trashed(`2026-02-0${d}T08:00:00.000Z`))))).map((r) => ({
        type: "person",
        id: r.id,
        at: r.deletedAt!,
      })),
    ];
    const expected = [...rows].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));

    for (const limit of [1, 3, 4, 100]) {
      const seen = await walk(t, "", limit);
      expect(
        seen.map((i) => i.id),
        `limit ${limit}`,
      ).toEqual(expected.map((r) => r.id));
    }
    const people = await walk(t, "type=person", 2);
    expect(people.map((i) => i.id)).toEqual(expected.filter((r) => r.type === "person").map((r) => r.id));
  });

  it("accepts API keys and members' JWTs; refuses anonymous callers", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    expect((await api(t, "/trash", { auth: { jwt: member.jwt } })).status).toBe(200);
    expect((await api(t, "/trash", { auth: null })).status).toBe(401);
  });
});
