// The Wrangler configuration the workerd test pool runs with (vitest.config.ts), kept apart from
// the developer's environment files. Wrangler reads `.dev.vars` (or, without one, `.env` files)
// from the directory of its configuration file, and the vitest plugin offers no switch to turn that
// off; so the pool gets a copy of wrangler.toml, as JSON with its paths made absolute, in a fresh
// temporary directory that holds no such file. `npm start` (wrangler dev) still reads .dev.vars.
// test/global/dev-vars-isolation.mjs proves it with sentinel files before every run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { experimental_readRawConfig } from "wrangler";
import { ensureWebBuild } from "../../scripts/lib/web-build.mjs";

// Fields holding paths (or per-environment copies) that this copy does not rewrite: fail loudly
// instead of handing the pool a configuration that points elsewhere.
const UNSUPPORTED = [
  "build",
  "site",
  "rules",
  "alias",
  "base_dir",
  "tsconfig",
  "wasm_modules",
  "text_blobs",
  "data_blobs",
  "env",
];

/** Writes the isolated copy of `sourcePath` and returns its path (removed when the process exits). */
export function isolatedWranglerConfig(sourcePath) {
  // The static assets (the field app's build) must exist for the Worker to start: a run of a few
  // test files without `npm run build:web` first gets one build (`npm test` always builds).
  ensureWebBuild();
  const source = resolve(sourcePath);
  const { rawConfig } = experimental_readRawConfig({ config: source });
  const present = UNSUPPORTED.filter((key) => rawConfig[key] !== undefined);
  if (present.length > 0) {
    throw new Error(`test/global/test-wrangler-config.mjs cannot copy ${present.join(", ")} of ${source} yet`);
  }
  const abs = (p) => (isAbsolute(p) ? p : resolve(dirname(source), p));
  const config = structuredClone(rawConfig);
  if (config.main) config.main = abs(config.main);
  if (config.assets?.directory) config.assets.directory = abs(config.assets.directory);
  for (const db of config.d1_databases ?? []) if (db.migrations_dir) db.migrations_dir = abs(db.migrations_dir);
  const dir = mkdtempSync(join(tmpdir(), "inventory-api-test-config-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "wrangler.json");
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}
