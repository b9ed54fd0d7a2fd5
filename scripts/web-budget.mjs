// The field app's first-load budget (docs/field-app.md#how-it-is-built-and-served): the JS and CSS that opening any page downloads —
// what dist/app/index.html names, plus every chunk those scripts import statically — at most
// 120 KB gzip together. Chunks loaded later by dynamic import() (the barcode decoder and its wasm,
// fetched when the camera opens) are not counted. Exits 1 when over budget. `npm run build:web`
// runs it after every build.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const BUDGET_BYTES = 120 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "app");

/** The files of the first load, as paths under dist/app ("/assets/x.js"). */
export function firstLoadFiles(dir = dist) {
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const named = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  const seen = new Set();
  const queue = [...named];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".js")) continue;
    const code = readFileSync(join(dir, file), "utf8");
    // Static imports only: `import ... from "./x.js"` and `import "./x.js"`, not `import("./x.js")`.
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+\.js)["']/g))
      queue.push(posix.join(posix.dirname(file), m[1]));
  }
  return [...seen];
}

export function measure(dir = dist) {
  const files = firstLoadFiles(dir).map((file) => ({
    file,
    gzip: gzipSync(readFileSync(join(dir, file)), { level: 9 }).length,
  }));
  return { files, total: files.reduce((sum, f) => sum + f.gzip, 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(dist, "index.html"))) {
    console.error("[budget] dist/app/index.html is missing: run `npm run build:web` first");
    process.exit(1);
  }
  const { files, total } = measure();
  for (const f of files) console.log(`[budget] ${f.file}  ${(f.gzip / 1024).toFixed(1)} KB gzip`);
  const verdict = total <= BUDGET_BYTES ? "within" : "OVER";
  console.log(
    `[budget] first load ${(total / 1024).toFixed(1)} KB gzip of JS+CSS, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
  );
  if (total > BUDGET_BYTES) process.exit(1);
}
