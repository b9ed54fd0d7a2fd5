// The demo workspace `npm start` seeds: created through the admin API like any workspace, then
// filled with sample categories and locations through the tenant API with its first API key.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { adminLogin, createTenant } from "./admin-client.mjs";
import { DEMO_REQUESTER, seedDemoRoles } from "./demo-roles-seed.mjs";
import { seedDemoCompany } from "./demo-seed.mjs";
import { HttpError, localUrl, request } from "./http.mjs";
import { DEMO_CREDENTIALS, ROOT } from "./paths.mjs";

/** Enterprise so every feature (webhooks, SSO) can be tried without hitting a plan gate. */
export const DEMO = {
  slug: "demo",
  plan: "enterprise",
  ownerEmail: "owner@demo.local",
  ownerPassword: "demo-owner-password",
};

const SAMPLE_CATEGORIES = [
  { name: "Laptops", description: "Notebooks issued to staff", expectedLifeMonths: 36 },
  { name: "Monitors", expectedLifeMonths: 60 },
  { name: "Phones", expectedLifeMonths: 24 },
  { name: "Tools", description: "Power and hand tools" },
];
/** A small tree: Headquarters › Floor 2 › Room 201, plus siblings. */
const SAMPLE_LOCATIONS = [
  { name: "Headquarters", children: [{ name: "Floor 2", children: [{ name: "Room 201" }] }, { name: "Reception" }] },
  { name: "Warehouse" },
];

export function loadCredentials() {
  if (!existsSync(DEMO_CREDENTIALS)) return null;
  try {
    return JSON.parse(readFileSync(DEMO_CREDENTIALS, "utf8"));
  } catch {
    return null;
  }
}

function saveCredentials(creds) {
  mkdirSync(dirname(DEMO_CREDENTIALS), { recursive: true });
  writeFileSync(DEMO_CREDENTIALS, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
}

const apiKeyWorks = async (tenantUrl, apiKey) =>
  (
    await request(`${tenantUrl}/api/v1/categories/default`, {
      headers: { authorization: `ApiKey ${apiKey}` },
      okStatuses: [401],
    })
  ).status === 200;

/**
 * Makes sure the demo workspace exists and its credentials are known; returns them.
 * The API key is shown once by the API, so it is saved to .wrangler/demo-credentials.json.
 */
export async function ensureDemo({ port, admin, log = console.log }) {
  const adminUrl = localUrl("admin", port);
  const tenantUrl = localUrl(DEMO.slug, port);
  const cookie = await adminLogin(adminUrl, admin);
  const created = await createTenant(adminUrl, cookie, {
    slug: DEMO.slug,
    plan: DEMO.plan,
    ownerEmail: DEMO.ownerEmail,
    ownerPassword: DEMO.ownerPassword,
  });

  let creds;
  if (created.status === 201) {
    const b = created.body;
    creds = {
      slug: b.slug,
      tenantId: b.tenantId,
      plan: b.plan,
      ownerEmail: b.owner.email,
      ownerPassword: DEMO.ownerPassword,
      apiKey: b.apiKey,
      samplesSeeded: false,
      createdAt: new Date().toISOString(),
    };
    saveCredentials(creds);
    log(`Created the demo workspace '${DEMO.slug}'.`);
  } else {
    creds = loadCredentials();
    if (!creds?.apiKey || !(await apiKeyWorks(tenantUrl, creds.apiKey))) {
      // Without a saved file, assume the samples were added back then: never re-add what a user deleted.
      creds = {
        slug: DEMO.slug,
        plan: DEMO.plan,
        samplesSeeded: true,
        ...creds,
        ownerEmail: DEMO.ownerEmail,
        ownerPassword: DEMO.ownerPassword,
        apiKey: await recoverApiKey(tenantUrl, log),
      };
      saveCredentials(creds);
    }
  }
  if ((!creds.samplesSeeded || !creds.companySeeded) && creds.apiKey) {
    try {
      if (!creds.samplesSeeded) await seedSamples(tenantUrl, creds.apiKey, log);
      creds.samplesSeeded = true;
      saveCredentials(creds);
      log("Seeding the demo company (about 200 assets; once)...");
      await seedDemoCompany(tenantUrl, creds.apiKey, log);
      creds.companySeeded = true;
      saveCredentials(creds);
    } catch (err) {
      // the workspace and its key are fine: report, print them anyway, retry on the next start
      log(`Adding the sample data failed: ${err.message}`);
      log("The next `npm start` tries again.");
    }
  }
  if (creds.companySeeded && !creds.rolesSeeded && creds.apiKey) {
    try {
      await seedDemoRoles(tenantUrl, creds.apiKey, { email: DEMO.ownerEmail, password: DEMO.ownerPassword }, log);
      creds.rolesSeeded = true;
      saveCredentials(creds);
    } catch (err) {
      log(`Adding the requester, stock and requests failed: ${err.message}`);
      log("The next `npm start` tries again.");
    }
  }
  return creds;
}

/**
 * The demo exists but its saved key is gone (file deleted) or stale: sign in as the demo owner
 * and mint a new key. Returns null when that fails, with a hint how to reset.
 */
async function recoverApiKey(tenantUrl, log) {
  try {
    const login = await request(`${tenantUrl}/api/v1/auth/login`, {
      method: "POST",
      body: { email: DEMO.ownerEmail, password: DEMO.ownerPassword },
    });
    const key = await request(`${tenantUrl}/api/v1/api-keys`, {
      method: "POST",
      body: { name: "Demo key (npm start)" },
      headers: { authorization: `Bearer ${login.body.accessToken}` },
    });
    const token = key.body?.token ?? key.body?.key ?? key.body?.apiKey;
    if (typeof token !== "string") throw new Error("POST /api-keys answered without a token");
    log("The saved demo API key was missing or revoked: created a new one.");
    return token;
  } catch (err) {
    log(`Could not recover a demo API key (${err.message}).`);
    log("To start over with a fresh demo workspace: stop the server, `rm -rf .wrangler`, and run `npm start` again.");
    return null;
  }
}

/** POST, or on 409 (name taken by an earlier, interrupted run) find the existing row by name. */
async function createOrFind(tenantUrl, apiKey, collection, body) {
  const auth = { authorization: `ApiKey ${apiKey}` };
  const res = await request(`${tenantUrl}/api/v1/${collection}`, {
    method: "POST",
    body,
    headers: auth,
    okStatuses: [409],
  });
  if (res.status === 201) return res.body;
  const list = await request(`${tenantUrl}/api/v1/${collection}?q=${encodeURIComponent(body.name)}`, { headers: auth });
  const found = list.body.items.find((r) => r.name.toLowerCase() === body.name.toLowerCase());
  if (!found) throw new HttpError("POST", `${tenantUrl}/api/v1/${collection}`, 409, res.body);
  return found;
}

async function seedSamples(tenantUrl, apiKey, log) {
  for (const c of SAMPLE_CATEGORIES) await createOrFind(tenantUrl, apiKey, "categories", c);
  const addTree = async (nodes, parentId) => {
    for (const { children, ...loc } of nodes) {
      const row = await createOrFind(tenantUrl, apiKey, "locations", parentId ? { ...loc, parentId } : loc);
      if (children) await addTree(children, row.id);
    }
  };
  await addTree(SAMPLE_LOCATIONS, undefined);
  log(`Seeded ${SAMPLE_CATEGORIES.length} sample categories and 5 sample locations.`);
}

/** The block printed on every start: where things are and how to call them. */
export function banner(creds, port, adminEmail) {
  const t = localUrl(DEMO.slug, port);
  const key = creds?.apiKey ?? "<unknown: see the message above>";
  const lines = [
    "",
    "──────────────────────────────────────────────────────────────────────────",
    " Inventory API is running locally",
    `   Field app      ${t}/   (sign in; labels open ${t}/a/<tag>, the scanner ${t}/scan)`,
    `   Workspace API  ${t}/api/v1`,
    `   API docs       ${t}/api/v1/docs   (OpenAPI: ${t}/api/v1/openapi.json)`,
    `   Admin API      ${localUrl("admin", port)}/api/v1/admin   (sign in as ${adminEmail}; password in .dev.vars)`,
    `   Run the cron   curl "http://localhost:${port}/__scheduled?cron=*/5+*+*+*+*"`,
    "",
    ` Demo workspace '${DEMO.slug}' (plan ${creds?.plan ?? DEMO.plan})`,
    `   Owner          ${DEMO.ownerEmail} / ${DEMO.ownerPassword}`,
    `   Requester      ${DEMO_REQUESTER.email} / ${DEMO_REQUESTER.password}   (asks for equipment; the owner approves)`,
    `   API key        ${key}`,
    `   Saved in       ${relative(ROOT, DEMO_CREDENTIALS)}`,
    "",
    " Try:",
    `   curl ${t}/api/v1/categories -H "Authorization: ApiKey ${key}"`,
    `   curl "${t}/api/v1/inventory-items?limit=5" -H "Authorization: ApiKey ${key}"`,
    "",
    ` A user's JWT (for /auth/me, /users, /api-keys, notifications): ${port === 8787 ? "" : `PORT=${port} `}npm run -s token`,
    ` New workspace:   ${port === 8787 ? "" : `PORT=${port} `}npm run tenant:create -- acme --plan pro --owner you@acme.test`,
    " Ctrl-C stops the server.",
    "──────────────────────────────────────────────────────────────────────────",
    "",
  ];
  return lines.join("\n");
}
