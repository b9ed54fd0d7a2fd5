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
  { path: "/a/:tag", decoder: false },
  { path: "/h/:handoverId", decoder: false },
  { path: "/scan", decoder: true },
  { path: "/scan/*", decoder: true },
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
