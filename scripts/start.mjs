// `npm start`: one command from a fresh clone to a running local API with a demo workspace.
//   0. the field app (web/) built into dist/app, the Worker's static assets (docs/field-app.md)
//   1. .dev.vars from .dev.vars.example when missing (local secrets, admin credentials)
//   2. pending migrations applied to the local control database and used pool databases
//   3. `wrangler dev` (BASE_URL http://localhost:$PORT: hosts <slug>.localhost) with local D1, Durable Objects, R2, Queues and cron (--test-scheduled)
//   4. once it answers: the demo workspace seeded through the admin API, credentials printed
//   Mail: a local SMTP server on loopback (scripts/lib/mail-catcher.mjs) receives every mail the
//   Worker sends (MAIL_SMTP_PORT, default 1025); they are kept as .eml files in .wrangler/mail and
//   shown at http://127.0.0.1:8025/ (MAIL_WEB_PORT). Port 0 picks a free one; the ports in use are
//   recorded in .wrangler/mail-catcher.json (the walk-throughs read the mails there).
// Extra arguments go to `wrangler dev` (`npm start -- --inspector-port 9230`), except `--shards N`:
// the router and N shards in one `wrangler dev` (docs/deploying.md#shards), with databases of their
// own (.wrangler/shards/state) and the demo workspace on the shard with the most room.
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { outputGate, STOP_SIGNALS, whenParentGone } from "./lib/child-life.mjs";
import { banner, ensureDemo } from "./lib/demo.mjs";
import { adminCredentials, ensureDevVars } from "./lib/dev-vars.mjs";
import { request } from "./lib/http.mjs";
import { migrateLocalDatabases } from "./lib/local-migrations.mjs";
import { recordLocalPort } from "./lib/local-port.mjs";
import { startMailCatcher } from "./lib/mail-catcher.mjs";
import { ROOT } from "./lib/paths.mjs";
import { writeShardConfigs } from "./lib/shard-configs.mjs";
import { buildWeb } from "./lib/web-build.mjs";
import { reexecUnderNode22IfNeeded, runWrangler, spawnWrangler } from "./lib/wrangler.mjs";

const log = (msg) => console.log(`[start] ${msg}`);
let wrangler = null;
let stopWrangler = () => {};
let failed = false;

/** `--shards N` out of the arguments (the rest go to wrangler); 0 without it. */
function shardOption(args) {
  const i = args.indexOf("--shards");
  if (i === -1) return { shards: 0, rest: args };
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`--shards takes a number from 1 to 8, got '${args[i + 1]}'`);
  return { shards: n, rest: [...args.slice(0, i), ...args.slice(i + 2)] };
}

/** The router and shard configurations, and their local state's control database migrated. */
async function shardedSetup(count, port) {
  const configs = await writeShardConfigs(count, { vars: { BASE_URL: `http://localhost:${port}` }, devVars: true });
  const state = join(ROOT, ".wrangler", "shards", "state");
  await runWrangler(
    ["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", state, "-c", configs.shards[0].path],
    {
      quiet: true,
    },
  );
  return ["-c", configs.router, ...configs.shards.flatMap((s) => ["-c", s.path]), "--persist-to", state];
}

async function main() {
  const { shards, rest: extraArgs } = shardOption(process.argv.slice(2));
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
  const topology = shards > 0 ? await shardedSetup(shards, port) : [];
  if (shards === 0) await migrateLocalDatabases(log);
  else log(`Running a router and ${shards} shard${shards > 1 ? "s" : ""} (.wrangler/shards/).`);

  const mail = await startMailCatcher({
    smtpPort: Number(process.env.MAIL_SMTP_PORT ?? 1025),
    httpPort: Number(process.env.MAIL_WEB_PORT ?? 8025),
    folder: join(ROOT, ".wrangler", "mail"),
  }).catch((err) => {
    throw new Error(
      `Could not start the local mail server (${err.message}): set MAIL_SMTP_PORT / MAIL_WEB_PORT to free ports`,
    );
  });

  mkdirSync(join(ROOT, ".wrangler"), { recursive: true });
  writeFileSync(
    join(ROOT, ".wrangler", "mail-catcher.json"),
    `${JSON.stringify({ smtpPort: mail.smtpPort, httpPort: mail.httpPort, url: `http://127.0.0.1:${mail.httpPort}` })}\n`,
  );

  log(`Starting wrangler dev on port ${port}...`);
  // Quiet until the credentials: wrangler's start-up output (the bindings table, a request log line
  // per seeding call) goes to .wrangler/start.log and is printed only if the start fails; after the
  // banner its output (request logs, the Worker's console) comes through as it is.
  // Wrangler runs in its own process group, so a stop reaches wrangler, esbuild and workerd at once;
  // it does not own the keyboard (no hotkeys): Ctrl-C reaches us and we stop the group.
  mkdirSync(join(ROOT, ".wrangler"), { recursive: true });
  const startLog = createWriteStream(join(ROOT, ".wrangler", "start.log"));
  const gate = outputGate(startLog);
  wrangler = spawnWrangler(
    [
      "dev",
      "--port",
      String(port),
      "--test-scheduled",
      "--var",
      `BASE_URL:http://localhost:${port}`,
      // Mail goes to the local mail server (plain SMTP on loopback; docs/notifications.md).
      "--var",
      "MAIL_TRANSPORT:smtp",
      "--var",
      "SMTP_HOST:127.0.0.1",
      "--var",
      `SMTP_PORT:${mail.smtpPort}`,
      "--var",
      "SMTP_STARTTLS:false",
      ...topology,
      ...extraArgs,
    ],
    { quiet: true, detached: true, env: { FORCE_COLOR: process.stdout.isTTY ? "1" : "0", ...process.env } },
  );
  gate.pipe(wrangler.stdout, process.stdout);
  gate.pipe(wrangler.stderr, process.stderr);
  let stopping = false;
  const exited = new Promise((resolve) => wrangler.on("exit", (code, signal) => resolve({ code, signal })));
  stopWrangler = (sig) => {
    if (stopping) return;
    stopping = true;
    if (wrangler.exitCode !== null || wrangler.signalCode !== null) return;
    const group = (s) => {
      try {
        process.kill(-wrangler.pid, s);
      } catch {
        // already gone
      }
    };
    group(sig);
    // workerd can outlive a wrangler that hangs while tearing down: make sure the group is gone.
    setTimeout(() => group("SIGKILL"), 10_000).unref();
  };
  for (const sig of STOP_SIGNALS) process.on(sig, () => stopWrangler(sig === "SIGINT" ? "SIGINT" : "SIGTERM"));
  // npm forwards a signal to its shell only: when npm and the shell are gone, we stop as well.
  whenParentGone(() => stopWrangler("SIGTERM"));
  exited.then(({ code, signal }) => {
    if (!stopping && code !== 0) {
      gate.dump();
      log(`wrangler dev exited (${signal ?? `code ${code}`}); its output is above and in .wrangler/start.log.`);
    } else log("Stopped.");
    process.exit(failed ? 1 : stopping ? 0 : (code ?? 1));
  });

  await Promise.race([waitUntilReady(port), exited.then(() => new Promise(() => {}))]).catch((err) => {
    gate.dump();
    throw err;
  });
  recordLocalPort(port);
  try {
    const creds = await ensureDemo({ port, admin, log });
    gate.release();
    console.log(banner(creds, port, admin.email));
    console.log(
      ` Mail sent by the Worker: http://127.0.0.1:${mail.httpPort}/  (SMTP 127.0.0.1:${mail.smtpPort}; .eml files in .wrangler/mail)\n`,
    );
  } catch (err) {
    gate.release();
    if (stopping) return;
    log(`Seeding the demo workspace failed: ${err.message} (wrangler's output: .wrangler/start.log)`);
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
