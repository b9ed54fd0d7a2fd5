// Local secrets: `.dev.vars` (read by `wrangler dev`), created from the committed example on first start.
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "./paths.mjs";

/** Parses dotenv-style `KEY=value` lines (comments, blank lines and optional quotes allowed). */
export function parseDevVars(text) {
  const vars = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    vars[line.slice(0, eq).trim()] = value;
  }
  return vars;
}

/** Copies `.dev.vars.example` to `.dev.vars` when missing; returns true when it did. */
export function ensureDevVars() {
  if (existsSync(DEV_VARS)) return false;
  copyFileSync(DEV_VARS_EXAMPLE, DEV_VARS);
  return true;
}

export function readDevVars() {
  return existsSync(DEV_VARS) ? parseDevVars(readFileSync(DEV_VARS, "utf8")) : {};
}

/** Platform-admin credentials: the environment wins (production operators), then `.dev.vars`. */
export function adminCredentials() {
  const file = readDevVars();
  const email = process.env.ADMIN_EMAIL ?? file.ADMIN_EMAIL;
  const password = process.env.ADMIN_PASSWORD ?? file.ADMIN_PASSWORD;
  if (!email || !password) {
    throw new Error(
      "ADMIN_EMAIL and ADMIN_PASSWORD are not set: put them in the environment or in .dev.vars (run `npm start` once to create it).",
    );
  }
  return { email, password };
}
