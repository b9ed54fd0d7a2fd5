// Data and steps the scanner's browser tests and its benchmark (bench/field.mjs) share. `ws` is
// { base, api(path, init) } of a workspace (test/browser/browser.mjs `workspace()`).
import http from "node:http";
import { modulesOfSvg, pngPixels } from "./fake-camera.mjs";

const must = (res, what) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

export const makeLocation = async (ws, name) =>
  must(await ws.api("/locations", { method: "POST", body: { name } }), name);

export async function makeAssets(ws, prefix, n, locationId) {
  const out = [];
  for (let i = 1; i <= n; i++) {
    const body = {
      name: `${prefix} ${i}`,
      uniqueTag: `${prefix.replace(/\W/g, "")}-${String(i).padStart(3, "0")}`,
      locationId,
    };
    out.push(must(await ws.api("/inventory-items", { method: "POST", body }), body.uniqueTag));
  }
  return out;
}

export const startSession = async (ws, name, locationId) =>
  must(
    await ws.api("/sessions", {
      method: "POST",
      body: { name, status: "active", ...(locationId ? { locationId } : {}) },
    }),
    name,
  );

/** The QR code of an asset's label, as the label route draws it (GET /inventory-items/{id}/qr.svg). */
export async function labelModules(ws, assetId) {
  const res = await ws.api(`/inventory-items/${assetId}/qr.svg`);
  if (res.status !== 200) throw new Error(`qr.svg ${assetId}: ${res.status}`);
  return modulesOfSvg(typeof res.body === "string" ? res.body : Buffer.from(res.body).toString("utf8"));
}

/** Signs in through the app's /login and lands on `next`. */
export async function signInTo(page, base, user, next) {
  await page.goto(`${base}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Password").press("Enter");
  await page.waitForURL(`${base}${next}`);
}

/** Types codes into the scanner's field, one after the other, as a keyboard-wedge scanner would. */
export async function typeCodes(page, codes) {
  const field = page.getByLabel("Tag or label URL");
  for (const code of codes) {
    await field.fill(code);
    await field.press("Enter");
  }
}

/**
 * A printed label's pixels: POST /labels/print as PNG (node:http with the Host header: Node does
 * not resolve `*.localhost`), read by fake-camera.mjs's `pngPixels`.
 */
export function printedLabel(ws, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(`${ws.base}/api/v1/labels/print`);
    const payload = JSON.stringify({ format: "png", ...body });
    const req = http.request(
      {
        host: "127.0.0.1",
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent: false,
        headers: {
          host: u.host,
          authorization: `Bearer ${ws.jwt}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(payload)),
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          if (res.statusCode !== 200) reject(new Error(`print: ${res.statusCode} ${bytes.toString("utf8")}`));
          else resolve(pngPixels(bytes));
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
