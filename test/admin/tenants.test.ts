import { describe, expect, it } from "vitest";
import type { CreatedTenant, Tenant } from "../../src/modules/admin";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { adminApi, adminSignIn, asTestTenant, uniqueSlug } from "../harness/admin";
import { api, type CallResult, call } from "../harness/tenant";

const create = async <T = CreatedTenant>(cookie: string, body: Record<string, unknown>) =>
  adminApi<T>(cookie, "/admin/tenants", { body });

describe("platform admin: workspaces", () => {
  it("places a workspace by its location hint where it can and never outside its jurisdiction", async () => {
    const cookie = await adminSignIn();
    // This Worker declares no region: a location hint is a preference (placed anyway) ...
    const slug = uniqueSlug();
    const hinted = await create(cookie, { slug, ownerEmail: `owner@${slug}.example.com`, locationHint: "weur" });
    expect([hinted.status, hinted.body.shard]).toEqual([201, "main"]);
    // ... a jurisdiction is a rule: no shard keeps data in the EU, so no workspace, and its slug stays free.
    const eu = uniqueSlug();
    const refused = await create<ErrorBody & { details: { path: string }[] }>(cookie, {
      slug: eu,
      ownerEmail: `owner@${eu}.example.com`,
      jurisdiction: "eu",
    });
    expect([refused.status, refused.body.details?.[0]?.path]).toEqual([400, "body.jurisdiction"]);
    const bad = await create<ErrorBody & { details: { path: string }[] }>(cookie, {
      slug: eu,
      ownerEmail: `owner@${eu}.example.com`,
      locationHint: "mars",
    });
    expect([bad.status, bad.body.details?.[0]?.path]).toEqual([400, "body.locationHint"]);
    expect((await create(cookie, { slug: eu, ownerEmail: `owner@${eu}.example.com` })).status).toBe(201);
  });

  it("creates a workspace whose API key works and which has exactly one default category and location", async () => {
    const cookie = await adminSignIn();
    const slug = uniqueSlug();
    const res = await create(cookie, { slug, plan: "pro", ownerEmail: `Owner@${slug}.example.com` });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      tenantId: expect.stringMatching(/^ten_/),
      slug,
      plan: "pro",
      owner: { email: `owner@${slug}.example.com`, password: expect.any(String) },
      apiKey: expect.any(String),
      shard: "main",
    });
    const t = asTestTenant(res.body, res.body.owner.password!);

    const cats = await api<Page<Category>>(t, "/categories");
    expect(cats.status).toBe(200);
    expect(cats.body.items).toEqual([expect.objectContaining({ name: "General", isDefault: true })]);
    const locs = await api<Page<Location>>(t, "/locations");
    expect(locs.body.items).toEqual([expect.objectContaining({ name: "Main", isDefault: true, parentId: null })]);
    expect((await api<Category>(t, "/categories/default")).body.id).toBe(cats.body.items[0]!.id);
    expect((await api<Location>(t, "/locations/default")).body.id).toBe(locs.body.items[0]!.id);

    // The generated owner password signs in.
    const login = await api(t, "/auth/login", {
      body: { email: t.owner.email, password: t.owner.password },
      auth: null,
    });
    expect(login.status).toBe(200);

    const got = await adminApi(cookie, `/admin/tenants/${t.id}`);
    expect(got.body).toMatchObject({ tenantId: t.id, slug, plan: "pro", status: "active" });
  });

  it("returns the owner password only when it generated one, and defaults the plan to free", async () => {
    const cookie = await adminSignIn();
    const res = await create(cookie, {
      slug: uniqueSlug(),
      ownerEmail: "chosen@example.com",
      ownerPassword: "a-chosen-password",
    });
    expect(res.status).toBe(201);
    expect(res.body.owner).toEqual({ email: "chosen@example.com" });
    expect(res.body.plan).toBe("free");
    const t = asTestTenant(res.body, "a-chosen-password");
    expect(
      (
        await api(t, "/auth/login", {
          body: { email: "chosen@example.com", password: "a-chosen-password" },
          auth: null,
        })
      ).status,
    ).toBe(200);
  });

  it("rejects duplicate, reserved and malformed slugs", async () => {
    const cookie = await adminSignIn();
    const slug = uniqueSlug();
    expect((await create(cookie, { slug, ownerEmail: "a@example.com" })).status).toBe(201);
    const dup = await create<ErrorBody & { details: { path: string }[] }>(cookie, {
      slug,
      ownerEmail: "b@example.com",
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");

    for (const reserved of ["admin", "www", "api", "app"]) {
      const res = await create<ErrorBody & { details: { path: string }[] }>(cookie, {
        slug: reserved,
        ownerEmail: "a@example.com",
      });
      expect(res.status, reserved).toBe(400);
      expect(res.body.details, reserved).toEqual([{ path: "body.slug", message: "reserved" }]);
    }
    for (const bad of ["ab", "-abc", "abc-", "Upper", "has space", "dots.in.it", "x".repeat(33), "ünï"]) {
      const res = await create<ErrorBody & { details: { path: string }[] }>(cookie, {
        slug: bad,
        ownerEmail: "a@example.com",
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.code, bad).toBe("validation_failed");
    }
    for (const body of [
      { slug: uniqueSlug(), ownerEmail: "nope" },
      { slug: uniqueSlug(), ownerEmail: "a@example.com", plan: "gold" },
      { slug: uniqueSlug(), ownerEmail: "a@example.com", extra: 1 },
      { slug: uniqueSlug(), ownerEmail: "a@example.com", ownerPassword: "short" },
    ]) {
      expect((await create(cookie, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("lists workspaces with cursor pagination", async () => {
    const cookie = await adminSignIn();
    const mine: string[] = [];
    for (let i = 0; i < 3; i++)
      mine.push((await create(cookie, { slug: uniqueSlug("page"), ownerEmail: "a@example.com" })).body.tenantId);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: CallResult<Page<Tenant>> = await adminApi(
        cookie,
        `/admin/tenants?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((x: { tenantId: string }) => x.tenantId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(mine));
    expect((await adminApi(cookie, "/admin/tenants?limit=101")).status).toBe(400);
    expect((await adminApi(cookie, "/admin/tenants?cursor=bogus")).status).toBe(400);
  });

  it("suspends and reactivates a workspace, and changes its plan", async () => {
    const cookie = await adminSignIn();
    const res = await create(cookie, { slug: uniqueSlug(), plan: "free", ownerEmail: "a@example.com" });
    const t = asTestTenant(res.body, res.body.owner.password!);
    const patch = (body: unknown) => adminApi<Tenant>(cookie, `/admin/tenants/${t.id}`, { method: "PATCH", body });

    const suspended = await patch({ status: "suspended" });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ tenantId: t.id, status: "suspended" });
    for (const path of ["/categories", "/locations/default"]) {
      const blocked = await api(t, path);
      expect(blocked.status, path).toBe(404);
      expect(blocked.body).toMatchObject({ code: "not_found", requestId: expect.stringMatching(/^req_/) });
    }
    expect(
      (await api(t, "/auth/login", { body: { email: t.owner.email, password: t.owner.password }, auth: null })).status,
    ).toBe(404);

    expect((await patch({ status: "active" })).body.status).toBe("active");
    expect((await api(t, "/categories")).status).toBe(200);

    const upgraded = await patch({ plan: "enterprise" });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toMatchObject({ plan: "enterprise", status: "active" });
    expect((await adminApi<Tenant>(cookie, `/admin/tenants/${t.id}`)).body.plan).toBe("enterprise");

    for (const body of [{}, { status: "provisioning" }, { plan: "gold" }, { status: "active", extra: true }]) {
      expect((await patch(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await adminApi(cookie, "/admin/tenants/ten_00000000000000000000000000", {
          method: "PATCH",
          body: { plan: "pro" },
        })
      ).status,
    ).toBe(404);
    expect((await adminApi(cookie, "/admin/tenants/ten_00000000000000000000000000")).status).toBe(404);
  });

  it("keeps an existing workspace's data out of reach of another workspace's key", async () => {
    const cookie = await adminSignIn();
    const a = asTestTenant((await create(cookie, { slug: uniqueSlug(), ownerEmail: "a@example.com" })).body, "");
    const b = asTestTenant((await create(cookie, { slug: uniqueSlug(), ownerEmail: "b@example.com" })).body, "");
    expect((await call(`${a.base}/categories`, { auth: { apiKey: b.apiKey } })).status).toBe(401);
  });
});
