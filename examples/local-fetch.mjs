// A `fetch` for the typed client that reaches `*.localhost` hosts (the local demo, `npm start`).
// Node's fetch resolves names with getaddrinfo, which does not map `demo.localhost` to loopback as
// browsers and curl do, and it drops a `Host` header set by hand, so the workspace (the first label
// of the host) would be lost. This dials 127.0.0.1 itself and sends the real Host; any other URL
// goes to the global fetch unchanged.
import http from "node:http";

const isLocal = (hostname) => hostname === "localhost" || hostname.endsWith(".localhost");

/** @param {Request} req */
export async function localFetch(req) {
  const url = new URL(req.url);
  if (!isLocal(url.hostname)) return fetch(req);
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
  const headers = Object.fromEntries(req.headers);
  headers.host = url.host;
  if (body) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const out = http.request(
      { host: "127.0.0.1", port: url.port || 80, path: url.pathname + url.search, method: req.method, headers },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            for (const value of Array.isArray(v) ? v : [v]) if (value !== undefined) responseHeaders.append(k, value);
          }
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 304 || req.method === "HEAD";
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      },
    );
    out.setTimeout(30_000, () => out.destroy(new Error(`timeout calling ${url.href}`)));
    out.on("error", reject);
    out.end(body);
  });
}
