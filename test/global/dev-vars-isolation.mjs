// vitest globalSetup (runs in Node before the pool starts): proves that no key of a `.dev.vars` or
// `.env` file reaches the workerd test pool. For each kind of file, a scratch project gets a copy
// of wrangler.toml and the file with a sentinel key. Control: Wrangler's own reading of that copy
// (the same calls the vitest plugin makes) must pick the sentinel up, or this check would prove
// nothing and fails as such. Then the isolated configuration made from the same copy, as the pool
// gets it (test-wrangler-config.mjs), must not. test/platform/test-env.test.ts checks, inside the
// pool, that the Worker's variables are exactly the ones the test configuration sets.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { isolatedWranglerConfig } from "./test-wrangler-config.mjs";

const root = new URL("../../", import.meta.url).pathname;

function varsOf(configPath) {
  const config = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  return unstable_getMiniflareWorkerOptions(config, undefined, {}).workerOptions.bindings ?? {};
}

export function checkIsolation() {
  for (const file of [".dev.vars", ".env"]) {
    const project = mkdtempSync(join(tmpdir(), "inventory-api-dev-vars-check-"));
    try {
      copyFileSync(join(root, "wrangler.toml"), join(project, "wrangler.toml"));
      writeFileSync(join(project, file), "ISOLATION_SENTINEL=leaked\n");
      if (!("ISOLATION_SENTINEL" in varsOf(join(project, "wrangler.toml")))) {
        throw new Error(
          `dev-vars isolation check is vacuous: Wrangler no longer reads ${file} beside its configuration; revisit test/global/dev-vars-isolation.mjs`,
        );
      }
      const leaked = Object.keys(varsOf(isolatedWranglerConfig(join(project, "wrangler.toml"))));
      if (leaked.includes("ISOLATION_SENTINEL")) {
        throw new Error(`a key of ${file} reaches the test pool: see test/global/test-wrangler-config.mjs`);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }
}

export default function setup() {
  // Wrangler logs "Using secrets defined in ..." for the control reads: expected, so not printed.
  const level = process.env.WRANGLER_LOG;
  process.env.WRANGLER_LOG = "error";
  try {
    checkIsolation();
  } finally {
    if (level === undefined) delete process.env.WRANGLER_LOG;
    else process.env.WRANGLER_LOG = level;
  }
}
