// `npm run check:start` (CI, .ci/run): `npm start` reads well and stops whole.
//   1. starts `npm start` on a free port and waits for the credentials banner;
//   2. checks what a user read before it: no `Request.cf` fetch (nor its stack trace), no request
//      log of the seeding, a few lines only;
//   3. sends SIGTERM to npm's PID only (as a process manager or `kill <pid>` does), then checks that
//      the port is closed and that no wrangler or workerd of this checkout is left.
// Anything of ours still alive at the end is killed by its PID and the check fails.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createConnection } from "node:net";
import { freePort } from "./lib/local-port.mjs";
import { ROOT } from "./lib/paths.mjs";

const BANNER = "Inventory API is running locally";
const MAX_LINES_BEFORE_BANNER = 25;

const portOpen = (port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** This checkout's start script, wrangler and workerd processes (Linux /proc; elsewhere the port check alone). */
function leftovers() {
  const found = [];
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const ours =
        (cmd.includes(ROOT) && /wrangler|workerd/.test(cmd)) ||
        (cmd.includes("scripts/start.mjs") && readlinkSync(`/proc/${pid}/cwd`) === ROOT.replace(/\/$/, ""));
      if (ours) found.push({ pid: Number(pid), cmd: cmd.slice(0, 120) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const before = leftovers();
  if (before.length) throw new Error(`a wrangler or workerd of this checkout already runs: ${before[0].cmd}`);
  const port = await freePort();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const child = spawn(npm, ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const problems = [];
  try {
    const deadline = Date.now() + 300_000;
    while (!output.includes(BANNER)) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before the banner`);
      if (Date.now() > deadline) throw new Error("no banner within 5 minutes");
      await sleep(500);
    }
    const head = output.slice(0, output.indexOf(BANNER)).split("\n");
    if (/Request\.cf|workers\.cloudflare\.com/.test(output))
      problems.push("wrangler tried to fetch the Request.cf object");
    if (head.some((l) => /\[wrangler:info\] (GET|POST|PATCH|PUT|DELETE) /.test(l)))
      problems.push("request logs of the seeding came before the credentials");
    if (head.length > MAX_LINES_BEFORE_BANNER)
      problems.push(`${head.length} lines came before the credentials (at most ${MAX_LINES_BEFORE_BANNER})`);

    process.kill(child.pid, "SIGTERM");
    const stopBy = Date.now() + 20_000;
    while ((await portOpen(port)) || leftovers().length) {
      if (Date.now() > stopBy) {
        problems.push(
          `20 s after SIGTERM to npm: port ${port} ${(await portOpen(port)) ? "still open" : "closed"}, ` +
            `left running: ${
              leftovers()
                .map((p) => `${p.pid} ${p.cmd}`)
                .join("; ") || "nothing"
            }`,
        );
        break;
      }
      await sleep(250);
    }
  } finally {
    for (const { pid } of leftovers()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  if (problems.length) {
    console.error(output);
    for (const p of problems) console.error(`[check:start] ${p}`);
    process.exit(1);
  }
  console.log(`[check:start] ok: quiet start on port ${port}; SIGTERM to npm stopped wrangler and workerd`);
}

main().catch((err) => {
  console.error(`[check:start] ${err.message}`);
  process.exit(1);
});
