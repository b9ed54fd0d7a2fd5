import { describe, expect, it } from "vitest";
import { APP_PAGES, appCsp } from "../../src/modules/field-app";
import { call, createTenant } from "../harness/tenant";

/** The field app's document and files as the Worker serves them (docs/field-app.md). */
describe("the field app's pages on a workspace host", () => {
  it("every app route answers with index.html under the strict CSP; only the decoder pages may compile wasm", async () => {
    const t = await createTenant();
    const origin = new URL(t.base).origin;
    for (const [path, decoder] of [
      ["/", false],
      ["/login", false],
      ["/a/AST-123", false],
      ["/a/odd%20tag", false],
      ["/s/STK-7K2M9Q", false],
      ["/k/kit_01jd3k4m5n6p7q8r9s0t1v2w3x", false],
      ["/l/loc_01jd3k4m5n6p7q8r9s0t1v2w3x", false],
      ["/p/per_01jd3k4m5n6p7q8r9s0t1v2w3x", false],
      ["/scan", true],
      ["/scan/audit", true],
    ] as const) {
      const res = await call<string>(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toBe(appCsp(decoder));
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'|https?:|\*/);
      expect(csp.includes("'wasm-unsafe-eval'"), path).toBe(decoder);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("permissions-policy")).toContain("camera=(self)");
      expect(res.body).toMatch(/<div id="app"><\/div>/);
    }
  });

  it("the document has no inline script or style: every script is a same-origin file", async () => {
    const t = await createTenant();
    const res = await call<string>(`${new URL(t.base).origin}/a/X`);
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, content] of scripts) {
      expect(attrs).toMatch(/src="\/assets\/[^"]+\.js"/);
      expect(content).toBe("");
    }
    expect(res.body).not.toMatch(/<style|style="/);
  });

  it("serves the service worker (revalidated every load) and the manifest; the API is unchanged around them", async () => {
    const t = await createTenant();
    const origin = new URL(t.base).origin;
    const sw = await call<string>(`${origin}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get("content-type")).toMatch(/javascript/);
    expect(sw.headers.get("cache-control")).toBe("no-cache");
    type Icon = { src: string; purpose?: string };
    const manifest = await call<{ id: string; start_url: string; icons: Icon[] }>(`${origin}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.body.id).toBe("/");
    expect(manifest.body.start_url).toBe("/");
    // Installable for real: a maskable icon and an Apple touch icon, each served.
    const maskable = manifest.body.icons.find((i) => i.purpose === "maskable");
    expect(maskable).toBeDefined();
    for (const src of [maskable!.src, "/apple-touch-icon.png"]) {
      const icon = await call(`${origin}${src}`);
      expect(icon.status, src).toBe(200);
      expect(icon.headers.get("content-type"), src).toBe("image/png");
    }
    // The cache is named after the build, so a new build's worker replaces (and deletes) the old one.
    expect(sw.body).toMatch(/inventory-shell-[a-z0-9]+-[a-z0-9]+/);
    const unknown = await call(`${origin}/no-such-page`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "not_found" });
    const api = await call(`${origin}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ code: "not_found" });
  });

  it("a mistyped page opened in a browser gets the app's document with a 404; the API and scripts keep JSON", async () => {
    const t = await createTenant();
    const origin = new URL(t.base).origin;
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    for (const path of ["/no-such-page", "/a/", "/s/x/y", "/scan-typo"]) {
      const res = await call<string>(`${origin}${path}`, { headers: html });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy")).toBe(appCsp(false));
      expect(res.body).toMatch(/<div id="app"><\/div>/);
    }
    // The API's own misses stay JSON even for a browser; so does a page path asked for without HTML.
    for (const [path, headers] of [
      ["/api/v1/no-such-route", html],
      ["/api/v1/stock-items/tag/NOPE", html],
      ["/no-such-page", {}],
      ["/no-such-page", { accept: "application/json" }],
    ] as const) {
      const res = await call(`${origin}${path}`, { headers });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
    }
    // A POST to a page path is no page: the JSON envelope.
    const post = await call(`${origin}/no-such-page`, { method: "POST", headers: html, body: {} });
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ code: "not_found" });
    // The bare base host has no app: JSON.
    const bare = await call("https://inventory.test/no-such-page", { headers: html });
    expect(bare.status).toBe(404);
    expect(bare.body).toMatchObject({ code: "not_found" });
  });

  it("the bare base host keeps its pointer to the API; every page path is listed once", async () => {
    const bare = await call<{ message: string }>("https://inventory.test/");
    expect(bare.status).toBe(200);
    expect(bare.body.message).toMatch(/Inventory Tracking API/);
    expect(new Set(APP_PAGES.map((p) => p.path)).size).toBe(APP_PAGES.length);
  });
});
