import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors";
import { hostLabel } from "../../tenancy/host";
import { documentHeaders } from "./csp";

/**
 * The field app's pages (docs/field-app.md#how-it-is-built-and-served): every one answers with the app's index.html (single-page
 * application, no server-side rendering) under the app's CSP; the client-side router shows the
 * page. Paths in Hono's syntax; test/platform/openapi.test.ts lists them as non-API routes.
 * `decoder`: the page runs the barcode decoder (WebAssembly), see csp.ts.
 */
export const APP_PAGES = [
  { path: "/", decoder: false },
  { path: "/login", decoder: false },
  { path: "/join", decoder: false },
  { path: "/reset-password", decoder: false },
  { path: "/catalogue", decoder: false },
  { path: "/requests", decoder: false },
  { path: "/requests/queue", decoder: false },
  { path: "/mine", decoder: false },
  { path: "/a/:tag", decoder: false },
  // What the other labels open (src/modules/labels/qr.ts): a stock item by tag, a kit and a location by id.
  { path: "/s/:tag", decoder: false },
  { path: "/k/:id", decoder: false },
  { path: "/l/:id", decoder: false },
  { path: "/h/:handoverId", decoder: false },
  // A person: what they hold and their software (an asset page's holder links here).
  { path: "/p/:id", decoder: false },
  { path: "/scan", decoder: true },
  { path: "/scan/*", decoder: true },
  // An offboarding case's return list (docs/offboarding.md): scans labels to check them in.
  { path: "/offboarding/:caseId", decoder: true },
] as const;

/**
 * Files of the build that the Worker serves itself (its hashed /assets/* are served by the asset
 * server directly: wrangler.toml `run_worker_first`). The service worker must be revalidated on
 * every load so an update is found; the manifest and icon may be cached for a while.
 */
export const APP_FILES: Record<string, string> = {
  "/sw.js": "no-cache",
  "/manifest.webmanifest": "public, max-age=3600",
  "/icon.svg": "public, max-age=86400",
  "/icon-192.png": "public, max-age=86400",
  "/icon-512.png": "public, max-age=86400",
  "/icon-maskable-512.png": "public, max-age=86400",
  "/apple-touch-icon.png": "public, max-age=86400",
};

async function fromAssets(c: { env: AppEnv["Bindings"]; req: { url: string } }, path: string) {
  const res = await c.env.ASSETS.fetch(new Request(new URL(path, c.req.url)));
  if (!res.ok) throw new ApiError("not_found", "Route not found");
  return res;
}

export const fieldAppPages = new Hono<AppEnv>();

for (const page of APP_PAGES) {
  fieldAppPages.get(page.path, async (c, next) => {
    // The bare base host has no workspace: its `/` keeps pointing to the API (app.ts).
    if (hostLabel(c.req.url, c.env) === null) return next();
    // "/" is index.html in the asset directory (the asset server maps it; "/index.html" redirects).
    const res = await fromAssets(c, "/");
    return new Response(res.body, { status: 200, headers: documentHeaders(page.decoder) });
  });
}

for (const [path, cacheControl] of Object.entries(APP_FILES)) {
  fieldAppPages.get(path, async (c) => {
    const res = await fromAssets(c, path);
    const headers = new Headers(res.headers);
    headers.set("cache-control", cacheControl);
    headers.set("x-content-type-options", "nosniff");
    return new Response(res.body, { status: 200, headers });
  });
}

/**
 * A mistyped page address opened in a browser (GET or HEAD, asking for HTML, on a workspace host,
 * outside the API) answers with the app's document and a 404: the app shows its "Page not found".
 * Everything else keeps the API's JSON 404 (a script, a `curl`, anything under /api/), so this
 * answers null for the caller to go on with it.
 */
export async function appNotFoundPage(c: Context<AppEnv>): Promise<Response | null> {
  const method = c.req.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") return null;
  const { pathname } = new URL(c.req.url);
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/assets/")) return null;
  if (!(c.req.header("accept") ?? "").includes("text/html")) return null;
  if (hostLabel(c.req.url, c.env) === null) return null;
  const res = await c.env.ASSETS.fetch(new Request(new URL("/", c.req.url)));
  if (!res.ok) return null;
  return new Response(method === "HEAD" ? null : res.body, { status: 404, headers: documentHeaders(false) });
}
