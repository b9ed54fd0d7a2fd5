// Where things live, resolved from this file so scripts work from any working directory.

import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DEV_VARS = join(ROOT, ".dev.vars");
export const DEV_VARS_EXAMPLE = join(ROOT, ".dev.vars.example");
/** Under .wrangler/ (gitignored) so it goes away together with the local databases it describes. */
export const DEMO_CREDENTIALS = join(ROOT, ".wrangler", "demo-credentials.json");
/** The port `npm start` serves on, written when it starts, so the other scripts find the server. */
export const LOCAL_SERVER = join(ROOT, ".wrangler", "local-server.json");
