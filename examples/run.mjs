// `npm run example`: runs examples/client-example.ts (the typed client) as an integrator would.
//
//   npm start                 # in another terminal: the local demo workspace
//   npm run example           # against it: http://demo.localhost:8787/api/v1 and the demo's API key
//   INVENTORY_URL=https://acme.example.com/api/v1 INVENTORY_API_KEY=ik_... npm run example
//
// Node runs the TypeScript files directly (type stripping); no build step. The example removes
// what it created, so running it leaves the workspace as it found it.
import { readFileSync } from "node:fs";
import { createInventoryClient } from "../client/index.ts";
import { runExample } from "./client-example.ts";
import { localFetch } from "./local-fetch.mjs";
import { localPort } from "../scripts/lib/local-port.mjs";
import { DEMO_CREDENTIALS } from "../scripts/lib/paths.mjs";

function demoKey() {
  try {
    return JSON.parse(readFileSync(DEMO_CREDENTIALS, "utf8")).apiKey;
  } catch {
    throw new Error("no INVENTORY_API_KEY and no local demo credentials: run `npm start` first, or set both variables");
  }
}

const baseUrl = process.env.INVENTORY_URL ?? `http://demo.localhost:${localPort()}/api/v1`;
const apiKey = process.env.INVENTORY_API_KEY ?? demoKey();
const api = createInventoryClient({ baseUrl, apiKey, fetch: localFetch });
try {
  console.log(JSON.stringify(await runExample(api)));
} catch (err) {
  console.error(`[example] ${err.message}`);
  process.exit(1);
}
