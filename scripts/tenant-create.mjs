// `npm run tenant:create -- <slug> [--plan free|pro|enterprise] [--owner email] [--password pw]
//                                   [--url http://admin.localhost:8787] [--json]`
// Creates a workspace through the platform-admin API (the same call as POST /api/v1/admin/tenants):
// signs in with ADMIN_EMAIL / ADMIN_PASSWORD from the environment or .dev.vars, then prints the
// result. The API key (and a generated owner password) are shown once: store them.
import { parseArgs } from "node:util";
import { adminLogin, createTenant } from "./lib/admin-client.mjs";
import { adminCredentials } from "./lib/dev-vars.mjs";
import { isConnectionRefused, localUrl } from "./lib/http.mjs";
import { localPort } from "./lib/local-port.mjs";

const USAGE = `Usage: npm run tenant:create -- <slug> [--plan free|pro|enterprise] [--owner email] [--password pw] [--url adminUrl] [--json]

  <slug>        3-32 of a-z, 0-9 and '-' (not admin, www, api, app); the workspace host is <slug>.<domain>
  --plan        free (default), pro or enterprise
  --owner       owner's email (default owner@<slug>.local)
  --password    owner's password, at least 10 characters (default: generated and printed once)
  --url         admin base URL (default ADMIN_URL, else http://admin.localhost:<port of the running npm start, or PORT>)
  --json        print the API's JSON answer only

Admin credentials come from ADMIN_EMAIL / ADMIN_PASSWORD in the environment, else from .dev.vars.`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      plan: { type: "string", default: "free" },
      owner: { type: "string" },
      password: { type: "string" },
      url: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  if (positionals.length !== 1) throw new UsageError("expected exactly one <slug>");
  const slug = positionals[0];
  // Same rule as the API (src/tenancy/provision.ts), checked first so the default owner email is valid.
  if (!/^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])$/.test(slug)) throw new UsageError(`invalid slug '${slug}'`);
  const adminUrl = (values.url ?? process.env.ADMIN_URL ?? localUrl("admin", localPort())).replace(/\/+$/, "");
  const input = {
    slug,
    plan: values.plan,
    ownerEmail: values.owner ?? `owner@${slug}.local`,
    ...(values.password ? { ownerPassword: values.password } : {}),
  };

  let result;
  try {
    const cookie = await adminLogin(adminUrl, adminCredentials());
    result = await createTenant(adminUrl, cookie, input);
  } catch (err) {
    if (isConnectionRefused(err))
      throw new Error(`Nothing answers at ${adminUrl}: start the server with \`npm start\` (or pass --url).`);
    throw err;
  }
  if (result.status === 409) throw new Error(`${result.body.message} (409 ${result.body.code})`);
  if (values.json) return console.log(JSON.stringify(result.body, null, 2));

  const b = result.body;
  const tenantUrl = tenantBase(adminUrl, b.slug);
  console.log(
    [
      `Created workspace '${b.slug}' (${b.tenantId}, plan ${b.plan}).`,
      `  API          ${tenantUrl}/api/v1`,
      `  Owner        ${b.owner.email}${b.owner.password ? ` / ${b.owner.password}  (generated; shown once)` : ""}`,
      `  API key      ${b.apiKey}  (shown once: store it now)`,
      "",
      `  curl ${tenantUrl}/api/v1/categories -H "Authorization: ApiKey ${b.apiKey}"`,
    ].join("\n"),
  );
}

/** The workspace's base URL: the admin URL with its first host label replaced by the slug. */
function tenantBase(adminUrl, slug) {
  const u = new URL(adminUrl);
  u.hostname = [slug, ...u.hostname.split(".").slice(1)].join(".");
  return u.origin;
}

class UsageError extends Error {}

main().catch((err) => {
  console.error(`tenant:create: ${err.message}`);
  if (err instanceof UsageError || err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") console.error(`\n${USAGE}`);
  process.exit(1);
});
