// `npm run docs:events`: writes docs/webhooks.md's event table from the event catalogue
// (src/domain/webhook-delivery/catalogue.ts), between the markers of src/domain/webhook-delivery/catalogue-table.ts.
// `npm run docs:events -- --check` only compares (exit 1 when the page is out of date); the test
// test/webhooks/catalogue-doc.test.ts does the same in `npm test`. Run it after adding an event.
// The catalogue is TypeScript: Node 22.18+ strips the types itself (npm run puts the project's
// Node 22 first on PATH); an older Node re-runs this script under it.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { join } from "node:path";
import { ROOT } from "./lib/paths.mjs";
import { nodeBinary } from "./lib/wrangler.mjs";

if (!process.features.typescript) {
  const r = spawnSync(nodeBinary(), ["--experimental-strip-types", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
// The Worker's sources import each other without extensions (the bundler resolves them); Node does
// not, so a relative import that names no file is tried as the `.ts` file it is.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith(".") && !/\.[cm]?[jt]s$/.test(specifier)) return next(`${specifier}.ts`, context);
    return next(specifier, context);
  },
});
const { CATALOGUE } = await import("../src/domain/webhook-delivery/catalogue.ts");
const { withCatalogueTable } = await import("../src/domain/webhook-delivery/catalogue-table.ts");
const file = join(ROOT, "docs", "webhooks.md");
const doc = readFileSync(file, "utf8");
const next = withCatalogueTable(doc, CATALOGUE);
if (process.argv.includes("--check")) {
  if (next !== doc) {
    console.error("docs/webhooks.md's event table differs from the catalogue: run `npm run docs:events`.");
    process.exit(1);
  }
  console.log("docs/webhooks.md's event table matches the catalogue.");
} else if (next === doc) console.log("docs/webhooks.md's event table is up to date.");
else {
  writeFileSync(file, next);
  console.log(`docs/webhooks.md: event table written (${CATALOGUE.length} types).`);
}
