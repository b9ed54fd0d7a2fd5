// The field app's pages never call fetch themselves (docs/field-app.md#floors-of-the-app): network access lives in the api
// floor (web/src/api/, the typed client) and the service worker. Fails on any other `fetch(`,
// `XMLHttpRequest` or `navigator.sendBeacon` in web/src. Part of `npm run check:architecture`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../web/src", import.meta.url));
const ALLOWED = [/^api\//, /^sw\.ts$/];
const NETWORK = /\bfetch\s*\(|\bXMLHttpRequest\b|\bsendBeacon\s*\(/;

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );

const offenders = files(root)
  .map((f) => relative(root, f).replaceAll("\\", "/"))
  .filter((f) => /\.(ts|tsx)$/.test(f) && !ALLOWED.some((a) => a.test(f)))
  .filter((f) => NETWORK.test(readFileSync(join(root, f), "utf8")));

if (offenders.length > 0) {
  console.error(`web/src: network calls outside the api floor:\n  ${offenders.join("\n  ")}`);
  process.exit(1);
}
console.log("web/src: no network call outside the api floor and the service worker");
