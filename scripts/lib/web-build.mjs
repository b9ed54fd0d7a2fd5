// Builds the field app (web/) into dist/app, the Worker's static assets (wrangler.toml [assets]).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const vite = fileURLToPath(new URL("../../node_modules/vite/bin/vite.js", import.meta.url));
export const WEB_INDEX = fileURLToPath(new URL("../../dist/app/index.html", import.meta.url));

export function buildWeb({ quiet = false } = {}) {
  const res = spawnSync(
    process.execPath,
    [vite, "build", "--config", "web/vite.config.ts", "--logLevel", quiet ? "error" : "info"],
    {
      cwd: root,
      stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit",
    },
  );
  if (res.status !== 0) throw new Error(`building the field app (vite build) failed with ${res.status ?? res.signal}`);
}

/** For runs that only need some build (the workerd tests): builds once when there is none. */
export function ensureWebBuild() {
  if (!existsSync(WEB_INDEX)) buildWeb({ quiet: true });
}
