// One Worker (served on 127.0.0.1, local-worker.mjs) for every browser test file: the field app is
// built once, the server started once, and each file reaches it through `inject("workerPort")`.
// Every file makes its own workspaces, so files share nothing but the process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMailCatcher } from "../../scripts/lib/mail-catcher.mjs";
import { buildWeb } from "../../scripts/lib/web-build.mjs";
import { startLocalWorker } from "./local-worker.mjs";
import { prepareWorkers } from "./prepared.mjs";

/** Extra Worker variables every browser test may rely on. */
export const WORKER_VARS = {
  // A social login that is configured but never reached (the page only shows its button).
  SOCIAL_OIDC_ISSUER: "http://127.0.0.1:9/",
  SOCIAL_OIDC_CLIENT_ID: "social-client",
  SOCIAL_OIDC_CLIENT_SECRET: "social-secret",
  SOCIAL_OIDC_NAME: "Example ID",
};

let worker;
let mail;
let preparedDir;

export async function setup({ provide }) {
  // `npm test` (scripts/test.mjs) has just built it, with its size budget: not twice.
  if (process.env.INVENTORY_WEB_BUILT !== "1") buildWeb({ quiet: true });
  // The Workers bundled once for every start of both suites (the router+shards files get them too):
  // made here, or already by `npm test` beside the workerd suite (scripts/test.mjs), which removes them.
  const given = process.env.INVENTORY_PREPARED;
  if (!given) preparedDir = mkdtempSync(join(tmpdir(), "inventory-prepared-"));
  const prepared = given ? JSON.parse(given) : await prepareWorkers(preparedDir);
  provide("prepared", prepared);
  // The Worker's mail goes to a local SMTP server on loopback (scripts/lib/mail-catcher.mjs).
  mail = await startMailCatcher();
  worker = await startLocalWorker(prepared, {
    ...WORKER_VARS,
    MAIL_TRANSPORT: "smtp",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(mail.smtpPort),
    SMTP_STARTTLS: "false",
  });
  provide("workerPort", worker.port);
  provide("mailCatcherUrl", `http://127.0.0.1:${mail.httpPort}`);
}

export async function teardown() {
  worker?.stop();
  await mail?.close();
  if (preparedDir) rmSync(preparedDir, { recursive: true, force: true });
}
