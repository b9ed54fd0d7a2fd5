// The scripts' one HTTP helper. The Worker reads the workspace from the URL's host name, and Node's
// resolver (getaddrinfo) does not resolve `*.localhost` the way browsers and curl do, so local URLs
// are dialled at `localhost` while the request keeps its real Host header (`demo.localhost:8787`).
import http from "node:http";

export const isLocalHost = (hostname) =>
  hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "127.0.0.1";

/** Base URL of a local host label, e.g. `localUrl("demo", 8787)` → `http://demo.localhost:8787`. */
export const localUrl = (label, port) => `http://${label}.localhost:${port}`;

/** A non-2xx answer, carrying the API's error envelope `{message, code, details?, requestId}`. */
export class HttpError extends Error {
  constructor(method, url, status, body) {
    const env = body && typeof body === "object" ? body : {};
    const what = env.code ? `${env.code}: ${env.message}` : String(body ?? "").slice(0, 200);
    super(`${method} ${url} → ${status} ${what}${env.requestId ? ` (requestId ${env.requestId})` : ""}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * Sends a JSON request. Returns `{status, headers, cookies, body}` (body parsed when JSON);
 * throws HttpError for non-2xx unless `okStatuses` lists the status.
 */
export async function request(url, { method = "GET", body, headers = {}, okStatuses = [] } = {}) {
  const u = new URL(url);
  const h = { accept: "application/json", ...headers };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) {
    h["content-type"] = "application/json";
    // Explicit length: without it Node sends DELETE bodies chunked, and wrangler dev drops them.
    h["content-length"] = String(Buffer.byteLength(payload));
  }
  const res = isLocalHost(u.hostname)
    ? await viaNodeHttp(u, method, h, payload)
    : await viaFetch(u, method, h, payload);
  let parsed = res.text;
  try {
    parsed = res.text ? JSON.parse(res.text) : null;
  } catch {
    // not JSON: keep the text
  }
  const out = { status: res.status, headers: res.headers, cookies: res.cookies, body: parsed };
  if ((res.status < 200 || res.status > 299) && !okStatuses.includes(res.status))
    throw new HttpError(method, url, res.status, parsed);
  return out;
}

function viaNodeHttp(u, method, headers, payload) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "localhost",
        port: u.port || 80,
        path: u.pathname + u.search,
        method,
        headers: { ...headers, host: u.host },
        // A connection per request: Node's default agent keeps sockets alive, and wrangler dev closes
        // an idle one, so a request after a pause (a long walk-through) met "socket hang up".
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            cookies: cookiePairs(res.headers["set-cookie"] ?? []),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout calling ${u.href}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

async function viaFetch(u, method, headers, payload) {
  const res = await fetch(u, { method, headers, body: payload, redirect: "manual" });
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    cookies: cookiePairs(res.headers.getSetCookie()),
    text: await res.text(),
  };
}

/** `Set-Cookie` values → `name=value` pairs to send back (attributes such as Secure are ours to honour). */
const cookiePairs = (setCookies) => setCookies.map((c) => c.split(";")[0].trim()).filter(Boolean);

/** True when nothing listens at the URL's port (connection refused), i.e. the server is not running. */
export const isConnectionRefused = (err) =>
  err?.code === "ECONNREFUSED" ||
  err?.cause?.code === "ECONNREFUSED" ||
  err?.errors?.some?.((e) => e.code === "ECONNREFUSED");
