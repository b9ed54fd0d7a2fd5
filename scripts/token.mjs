// `npm run -s token`: signs in as the demo owner (or --email/--password, --slug) on the running local
// server and prints a fresh access token (JWT, 15 minutes) on stdout, so `TOKEN=$(npm run -s token)`
// works; how to refresh it goes to stderr.
import { parseArgs } from "node:util";
import { DEMO } from "./lib/demo.mjs";
import { isConnectionRefused, localUrl, request } from "./lib/http.mjs";
import { localPort } from "./lib/local-port.mjs";

const { values } = parseArgs({
  options: {
    slug: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    json: { type: "boolean" },
  },
});
const slug = values.slug ?? DEMO.slug;
const email = values.email ?? DEMO.ownerEmail;
const password = values.password ?? DEMO.ownerPassword;
const base = `${localUrl(slug, localPort())}/api/v1`;

try {
  const res = await request(`${base}/auth/login`, { method: "POST", body: { email, password } });
  if (values.json) {
    console.log(JSON.stringify(res.body, null, 2));
  } else {
    console.log(res.body.accessToken);
    console.error(
      [
        "",
        `Access token of ${email} on workspace '${slug}' (valid ${res.body.expiresIn} s), above on stdout. Use it as`,
        `  curl ${base}/auth/me -H "Authorization: Bearer $TOKEN"        (TOKEN=$(npm run -s token))`,
        "Refresh it before it expires (the refresh token is single use; the answer carries the next one):",
        `  curl -s -X POST ${base}/auth/refresh -H 'content-type: application/json' -d '{"refreshToken":"${res.body.refreshToken}"}'`,
        "or simply run `npm run -s token` again.",
      ].join("\n"),
    );
  }
} catch (err) {
  if (isConnectionRefused(err)) console.error(`Nothing answers at ${base}: start the server with \`npm start\` first.`);
  else console.error(err.message);
  process.exit(1);
}
