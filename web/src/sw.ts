/**
 * The service worker: keeps the app shell (index.html and the files it names) so the app opens
 * offline. Pages are network first (a deploy shows at once; the cached shell when offline);
 * the hashed files under /assets/ never change, so cache first. The API is never cached here:
 * offline reads and the scan queue are the app's own (IndexedDB), and the server's answer wins.
 */
const sw = globalThis as unknown as ServiceWorkerGlobalScope;

/**
 * One cache per build (the id is written in by the build, web/vite.config.ts): a new build is a
 * new service worker with a new cache, and activating it deletes every older one, with the
 * files of the builds before.
 */
declare const __BUILD_ID__: string;
const CACHE = `inventory-shell-${__BUILD_ID__}`;
/** The same index.html twice: under the decoder pages' CSP (/scan) and everyone else's (/). */
const SHELL = "/";
const DECODER_SHELL = "/scan";
const runsDecoder = (p: string) => p === "/scan" || p.startsWith("/scan/");

async function cacheShell(): Promise<void> {
  const cache = await caches.open(CACHE);
  const res = await fetch(SHELL, { cache: "no-cache" });
  if (!res.ok) return;
  const html = await res.clone().text();
  await cache.put(SHELL, res);
  await cache.add(new Request(DECODER_SHELL, { cache: "no-cache" }));
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
  await cache.addAll([...files, "/manifest.webmanifest", "/icon.svg", "/apple-touch-icon.png"]);
}

sw.addEventListener("install", (event) => {
  event.waitUntil(cacheShell().then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys())
        if (key !== CACHE && key.startsWith("inventory-shell-")) await caches.delete(key);
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (req.mode === "navigate") {
    // Network first; offline, the shell (the router shows the page). The document keeps the CSP
    // the Worker gave the shell when it was cached.
    event.respondWith(
      fetch(req).catch(
        async () => (await caches.match(runsDecoder(url.pathname) ? DECODER_SHELL : SHELL)) ?? Response.error(),
      ),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      (async () => {
        const hit = await caches.match(req);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok) await (await caches.open(CACHE)).put(req, res.clone());
        return res;
      })(),
    );
  }
});
