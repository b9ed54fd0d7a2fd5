import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Location } from "../../src/modules/locations";
import type { Person } from "../../src/modules/people";
import type { Session } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";

/** What every mirrored list row has in common (a tombstone carries its deletedAt). */
type SyncRow = { id: string; updatedAt: string; deletedAt?: string | null };

/** Per mirrored list: how to create one row (returns its id), the list path and the trash type. */
const RESOURCES: {
  name: string;
  path: string;
  type: string;
  create: (t: TestTenant, i: number) => Promise<string>;
}[] = [
  {
    name: "assets",
    type: "asset",
    path: "/inventory-items",
    create: (t, i) => created(api<InventoryItem>(t, "/inventory-items", { body: { name: `A${i}` } })),
  },
  {
    name: "people",
    type: "person",
    path: "/people",
    create: (t, i) => created(api<Person>(t, "/people", { body: { name: `P${i}` } })),
  },
  {
    name: "categories",
    type: "category",
    path: "/categories",
    create: (t, i) => created(api<Category>(t, "/categories", { body: { name: `C${i}` } })),
  },
  {
    name: "locations",
    type: "location",
    path: "/locations",
    create: (t, i) => created(api<Location>(t, "/locations", { body: { name: `L${i}` } })),
  },
  {
    name: "custom fields",
    type: "custom_field",
    path: "/custom-fields",
    create: (t, i) =>
      created(
        api<CustomField>(t, "/custom-fields", {
          body: { entity: "asset", key: `k${i}`, label: `K${i}`, type: "text" },
        }),
      ),
  },
];

async function created(res: Promise<CallResult<{ id: string }>>): Promise<string> {
  const r = await res;
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe.each(RESOURCES)("sync: $name with updatedSince", ({ path, create }) => {
  it("returns changes oldest first with tombstones, and resumes by cursor or by the last updatedAt", async () => {
    const t = await createTenant();
    await tick();
    const since = new Date().toISOString();
    const a = await create(t, 1);
    await tick();
    const b = await create(t, 2);
    await tick();
    const c = await create(t, 3);
    await tick();
    expect((await api(t, `${path}/${a}`, { method: "DELETE" })).status).toBe(204);

    // Page by page with limit=1 (the cursor resumes exactly).
    const seen: SyncRow[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `${path}?updatedSince=${encodeURIComponent(since)}&limit=1${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await api<Page<SyncRow>>(t, q);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.map((r) => r.id)).toEqual([b, c, a]);
    expect(seen.map((r) => r.deletedAt ?? null)).toEqual([null, null, expect.any(String)]);
    const stamps = seen.map((r) => r.updatedAt);
    expect([...stamps].sort()).toEqual(stamps);

    // Resuming from the last updatedAt seen returns only what changed since (inclusive bound).
    await tick();
    expect((await api(t, `${path}/${b}`, { method: "DELETE" })).status).toBe(204);
    const next = await api<Page<SyncRow>>(t, `${path}?updatedSince=${encodeURIComponent(stamps[2]!)}`);
    expect(next.body.items.map((r) => r.id)).toEqual([a, b]);
    // Without updatedSince, deleted rows stay out of the list.
    const plain = await api<Page<SyncRow>>(t, path);
    expect(plain.body.items.map((r) => r.id)).not.toContain(a);
  });
});

describe.each(RESOURCES)("sync: $name purged from the trash", ({ path, type, create }) => {
  it("leaves a tombstone, so a client that never saw the row in the trash still learns it is gone", async () => {
    const t = await createTenant();
    const a = await create(t, 1);
    const b = await create(t, 2);
    const seen = await api<Page<SyncRow>>(t, `${path}?updatedSince=2000-01-01T00:00:00Z&limit=100`);
    const last = seen.body.items.at(-1)!.updatedAt;
    await tick();
    expect((await api(t, `${path}/${a}`, { method: "DELETE" })).status).toBe(204);
    const trashed = await api<Page<SyncRow>>(t, `${path}?updatedSince=${encodeURIComponent(last)}`);
    const trashedAt = trashed.body.items.find((r) => r.id === a)!.deletedAt;
    await tick();
    const purge = await api<{ results: { status: string }[] }>(t, "/trash/permanent-delete", {
      body: { items: [{ type, id: a }] },
    });
    expect(purge.body.results.map((r) => r.status)).toEqual(["deleted"]);
    // From the last sync before the trash, paged one by one: the purged row is a tombstone that keeps
    // the deletedAt it had in the trash, stamped (updatedAt) with the purge, after the rows changed before.
    const rows: SyncRow[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `${path}?updatedSince=${encodeURIComponent(last)}&limit=1${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await api<Page<SyncRow>>(t, q);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      rows.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const tomb = rows.find((r) => r.id === a);
    expect(tomb?.deletedAt).toBe(trashedAt);
    expect(tomb!.updatedAt > trashedAt!).toBe(true);
    expect(rows.map((r) => r.id)).toEqual([b, a]); // b: the inclusive bound (its updatedAt was the last seen)
    expect((await api<Page<SyncRow>>(t, path)).body.items.map((r) => r.id)).toContain(b);
  });
});

describe("sync: sessions with updatedSince", () => {
  it("orders by updatedAt then id", async () => {
    const t = await createTenant();
    const since = new Date(Date.now() - 1000).toISOString();
    const s1 = await created(api<Session>(t, "/sessions", { body: { name: "One" } }));
    await tick();
    const s2 = await created(api<Session>(t, "/sessions", { body: { name: "Two" } }));
    await tick();
    expect((await api(t, `/sessions/${s1}`, { method: "PATCH", body: { name: "One again" } })).status).toBe(200);
    const page = await api<Page<SyncRow>>(t, `/sessions?updatedSince=${encodeURIComponent(since)}`);
    expect(page.body.items.map((r) => r.id)).toEqual([s2, s1]);
  });
});
