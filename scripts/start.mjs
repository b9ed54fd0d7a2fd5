// `npm start`: one command from a fresh clone to a running local API with a demo workspace.
//   0. the field app (web/) built into dist/app, the Worker's static assets (docs/field-app.md)
//   1. .dev.vars from .dev.vars.example when missing (local secrets, admin credentials)
//   2. pending migrations applied to the local control database and used pool databases
//   3. `wrangler dev` (BASE_URL http://localhost:$PORT: hosts <slug>.localhost) with local D1, Durable Objects, R2, Queues and cron (--test-scheduled)
//   4. once it answers: the demo workspace seeded through the admin API, credentials printed
// Extra arguments go to `wrangler dev` (`npm start -- --inspector-port 9230`).
import { createServer } from "node:net";
import { ensureDemo, banner } from "./lib/demo.mjs";
import { adminCredentials, ensureDevVars } from "./lib/dev-vars.mjs";
import { request } from "./lib/http.mjs";
import { migrateLocalDatabases } from "./lib/local-migrations.mjs";
import { recordLocalPort } from "./lib/local-port.mjs";
import { buildWeb } from "./lib/web-build.mjs";
import { reexecUnderNode22IfNeeded, spawnWrangler } from "./lib/wrangler.mjs";

const log = (msg) => console.log(`[start] ${msg}`);
let wrangler = null;
let stopWrangler = () => {};
let failed = false;

async function main() {
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PORT must be a port number, got '${process.env.PORT}'`);

  if (ensureDevVars()) log("Created .dev.vars from .dev.vars.example (local secrets and admin credentials).");
  const admin = adminCredentials();
  // Seeding must talk to *our* server: refuse to start next to another one on the same port.
  await assertPortFree(port);

  log("Building the field app (web/ into dist/app)...");
  buildWeb({ quiet: true });

  log("Checking local database migrations...");
  await migrateLocalDatabases(log);

  log(`Starting wrangler dev on port ${port}...`);
  // In a terminal wrangler owns the keyboard (its hotkeys; Ctrl-C makes it shut down and exit).
  // Otherwise it runs in its own process group and a signal to us goes to that whole group
  // (wrangler, esbuild, workerd), as Ctrl-C in a terminal would.
  const interactive = process.stdin.isTTY === true;
  wrangler = spawnWrangler(
    [
      "dev",
      "--port",
      String(port),
      "--test-scheduled",
      "--var",
      `BASE_URL:http://localhost:${port}`,
      ...process.argv.slice(2),
    ],
    { interactive, detached: !interactive },
  );
  let stopping = false;
  const exited = new Promise((resolve) => wrangler.on("exit", (code, signal) => resolve({ code, signal })));
  stopWrangler = (sig) => {
    stopping = true;
    if (wrangler.exitCode !== null) return;
    try {
      if (interactive) wrangler.kill(sig);
      else process.kill(-wrangler.pid, sig);
    } catch {
      // already gone
    }
  };
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"])
    process.on(sig, () => stopWrangler(sig === "SIGHUP" ? "SIGTERM" : sig));
  exited.then(({ code, signal }) => {
    if (stopping || code === 0) log("Stopped.");
    else log(`wrangler dev exited (${signal ?? `code ${code}`}).`);
    process.exit(failed ? 1 : stopping ? 0 : (code ?? 1));
  });

  await Promise.race([waitUntilReady(port), exited.then(() => new Promise(() => {}))]);
  recordLocalPort(port);
  try {
    const creds = await ensureDemo({ port, admin, log });
    console.log(banner(creds, port, admin.email));
  } catch (err) {
    if (stopping) return;
    log(`Seeding the demo workspace failed: ${err.message}`);
    log("The server keeps running; fix the problem and restart to retry.");
  }
}

function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", (err) =>
      reject(
        err.code === "EADDRINUSE"
          ? new Error(`Port ${port} is already in use: stop what runs there or pick another, e.g. PORT=8788 npm start`)
          : err,
      ),
    );
    srv.listen(port, "127.0.0.1", () => srv.close(resolve));
  });
}

/** Polls the public OpenAPI route until the Worker answers (first start bundles and boots workerd). */
async function waitUntilReady(port, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await request(`http://localhost:${port}/api/v1/openapi.json`, { okStatuses: [404, 500, 503] });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`wrangler dev did not answer on port ${port} within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

if (!reexecUnderNode22IfNeeded()) {
  main().catch((err) => {
    console.error(`[start] ${err.message}`);
    failed = true;
    // never leave a wrangler behind
    if (wrangler && wrangler.exitCode === null) stopWrangler("SIGINT");
    else process.exit(1);
  });
}
