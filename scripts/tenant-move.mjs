// `npm run tenant:move -- <slug|tenantId> <toShard> [--url http://admin.localhost:8787] [--json]`
// Moves a workspace to another shard through the platform-admin API (POST then GET
// /api/v1/admin/tenants/{id}/move, docs/deploying.md#moving-a-workspace-between-shards) and follows
// it to its end, printing each state it passes; exits 1 when the move failed (it was rolled back).
import { parseArgs } from "node:util";
import { adminLogin } from "./lib/admin-client.mjs";
import { adminCredentials } from "./lib/dev-vars.mjs";
import { isConnectionRefused, localUrl, request } from "./lib/http.mjs";
import { localPort } from "./lib/local-port.mjs";

const USAGE = `Usage: npm run tenant:move -- <slug|tenantId> <toShard> [--url adminUrl] [--json]

  <slug|tenantId>  the workspace (its slug, or its ten_… id)
  <toShard>        the shard to move it to (GET /api/v1/admin/shards lists them: s1, s2, …)
  --url            admin base URL (default ADMIN_URL, else http://admin.localhost:<port of the running npm start, or PORT>)
  --json           print the move's final JSON only

Admin credentials come from ADMIN_EMAIL / ADMIN_PASSWORD in the environment, else from .dev.vars.`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  if (positionals.length !== 2) throw new UsageError("expected <slug|tenantId> and <toShard>");
  const [who, toShard] = positionals;
  const adminUrl = (values.url ?? process.env.ADMIN_URL ?? localUrl("admin", localPort())).replace(/\/+$/, "");
  let cookie;
  try {
    cookie = await adminLogin(adminUrl, adminCredentials());
  } catch (err) {
    if (isConnectionRefused(err))
      throw new Error(
        `Nothing answers at ${adminUrl}: start the server with \`npm start -- --shards 2\` (or pass --url).`,
      );
    throw err;
  }
  const admin = (path, init = {}) =>
    request(`${adminUrl}/api/v1/admin${path}`, { ...init, headers: { cookie }, okStatuses: [400, 404, 409] });
  const id = who.startsWith("ten_") ? who : await tenantIdOf(admin, who);
  const started = await admin(`/tenants/${id}/move`, { method: "POST", body: { toShard } });
  if (started.status !== 202) {
    // A 400 says which field and why (another jurisdiction, an unknown shard) in its details.
    const why = (started.body.details ?? []).map((d) => `${d.path} ${d.message}`).join("; ");
    throw new Error(`${started.body.message}${why ? `: ${why}` : ""} (${started.status} ${started.body.code})`);
  }
  let last = "";
  for (;;) {
    const move = (await admin(`/tenants/${id}/move`)).body;
    if (move.state !== last && !values.json) console.log(`${new Date().toISOString()}  ${move.state}`);
    last = move.state;
    if (move.state === "done" || move.state === "failed") {
      if (values.json) console.log(JSON.stringify(move, null, 2));
      else
        console.log(
          move.state === "done"
            ? `Moved to ${move.toShard}: ${move.copiedRows} rows copied, ${move.changedRows} copied again during the switch, ${move.sessions} open session(s) carried; writes were refused for ${move.switchMs} ms.`
            : `The move failed and was rolled back; the workspace stays on ${move.fromShard}: ${move.error}`,
        );
      if (move.state === "failed") process.exitCode = 1;
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A slug's tenant id, from the admin's workspace list. */
async function tenantIdOf(admin, slug) {
  for (let cursor = null; ; ) {
    const page = (await admin(`/tenants?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).body;
    const hit = page.items.find((t) => t.slug === slug);
    if (hit) return hit.tenantId;
    cursor = page.nextCursor;
    if (!cursor) throw new Error(`no workspace '${slug}'`);
  }
}

class UsageError extends Error {}

main().catch((err) => {
  console.error(`tenant:move: ${err.message}`);
  if (err instanceof UsageError || err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") console.error(`\n${USAGE}`);
  process.exit(1);
});
