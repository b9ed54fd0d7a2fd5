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

/** Per mirrored list: how to create one row (returns its id) and the list path. */
const RESOURCES: { name: string; path: string; create: (t: TestTenant, i: number) => Promise<string> }[] = [
  {
    name: "assets",
    path: "/inventory-items",
    create: (t, i) => created(api<InventoryItem>(t, "/inventory-items", { body: { name: `A${i}` } })),
  },
  {
    name: "people",
    path: "/people",
    create: (t, i) => created(api<Person>(t, "/people", { body: { name: `P${i}` } })),
  },
  {
    name: "categories",
    path: "/categories",
    create: (t, i) => created(api<Category>(t, "/categories", { body: { name: `C${i}` } })),
  },
  {
    name: "locations",
    path: "/locations",
    create: (t, i) => created(api<Location>(t, "/locations", { body: { name: `L${i}` } })),
  },
  {
    name: "custom fields",
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
