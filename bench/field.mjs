// The field app's scanner: `npm run bench -- field` (see bench/README.md "The field app's scanner").
//
// Builds the app, starts the Worker (bundled once and served by Miniflare on a loopback port, fresh
// local state: test/browser/local-worker.mjs), makes a
// workspace, and drives headless Chromium whose fake camera plays a y4m of 20 labels drawn by the
// label route (GET /inventory-items/{id}/qr.svg), one after the other, in a loop:
//  1. camera to screen: from the video frame a code was read from (its presentation time) to the
//     next frame painted after the result is on screen (the app's `scan-to-screen` measure), over
//     SCANS results (200);
//  2. the API's own scan latency in the same run: POST /sessions/{id}/scan from Node, SCANS times;
//  3. a replay: QUEUED (1,000) scans taken offline, then the time from back online until the queue
//     is empty and the server counts them all (POST /sessions/{id}/scan/batch, 500 at a time).
// Loopback only (the page can reach nothing else).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminLogin, createTenant } from "../scripts/lib/admin-client.mjs";
import { request } from "../scripts/lib/http.mjs";
import { buildWeb } from "../scripts/lib/web-build.mjs";
import { launch, PHONE } from "../test/browser/browser.mjs";
import { writeY4m } from "../test/browser/fake-camera.mjs";
import { ADMIN, startLocalWorker } from "../test/browser/local-worker.mjs";
import { prepareWorkers } from "../test/browser/prepared.mjs";
import {
  labelModules,
  makeAssets,
  makeLocation,
  signInTo,
  startSession,
  typeCodes,
} from "../test/browser/scanner-fixtures.mjs";
import { latencyStats, log, pool } from "./lib.mjs";

const SCANS = Number(process.env.SCANS ?? 200);
const QUEUED = Number(process.env.QUEUED ?? 1000);
const LABELS = 20;

async function workspace(port) {
  const admin = `http://admin.localhost:${port}`;
  const cookie = await adminLogin(admin, ADMIN);
  const slug = `field-${Date.now().toString(36)}`;
  const owner = { email: `owner@${slug}.example.com`, password: "owner-password-123" };
  const res = await createTenant(admin, cookie, {
    slug,
    plan: "pro",
    ownerEmail: owner.email,
    ownerPassword: owner.password,
  });
  if (res.status !== 201) throw new Error(`create workspace: ${res.status}`);
  const base = `http://${slug}.localhost:${port}`;
  const jwt = (await request(`${base}/api/v1/auth/login`, { method: "POST", body: owner })).body.accessToken;
  const api = (path, { method = "GET", body } = {}) =>
    request(`${base}/api/v1${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${jwt}` },
      okStatuses: [400, 404, 409],
    });
  return { base, owner, api };
}

async function main() {
  buildWeb({ quiet: true });
  // RATE_LIMITS=off, as in every benchmark (bench/lib.mjs): the replay's 1,000 assets alone are over the
  // pro plan's 600 requests a minute.
  const preparedDir = mkdtempSync(join(tmpdir(), "bench-field-prepared-"));
  const prepared = await prepareWorkers(preparedDir);
  const worker = await startLocalWorker(prepared, { RATE_LIMITS: "off" });
  let browser;
  try {
    const ws = await workspace(worker.port);
    const room = await makeLocation(ws, "Bench room");
    const labelled = await makeAssets(ws, "Label", LABELS, room.id);
    const video = join(mkdtempSync(join(tmpdir(), "bench-field-")), "labels.y4m");
    const frames = [];
    for (const a of labelled) frames.push(await labelModules(ws, a.id));
    const clip = writeY4m(video, frames, { fps: 20, hold: 4, gap: 2 });
    log(`fake camera: ${LABELS} labels, ${clip.frames} frames at ${clip.fps} fps (${clip.seconds} s a loop)`);
    browser = await launch([
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ]);

    // 1. Camera to screen.
    const cameraSession = await startSession(ws, "Camera bench", room.id);
    const context = await browser.newContext({ viewport: PHONE, permissions: ["camera"] });
    const page = await context.newPage();
    await signInTo(page, ws.base, ws.owner, `/scan/audit/${cameraSession.id}`);
    await page.locator(".progress").waitFor();
    await page.getByRole("button", { name: "Start camera" }).click();
    log(`camera on; waiting for ${SCANS} results`);
    const t0 = Date.now();
    await page.waitForFunction((n) => performance.getEntriesByName("scan-to-screen").length >= n, SCANS, {
      timeout: 600_000,
      polling: 500,
    });
    const camera = await page.evaluate(
      (n) =>
        performance
          .getEntriesByName("scan-to-screen")
          .slice(0, n)
          .map((e) => e.duration),
      SCANS,
    );
    const cameraStats = latencyStats(camera, Date.now() - t0);
    await page.getByRole("button", { name: "Stop camera" }).click();

    // 2. The API's scan latency, same run, same Worker.
    const apiSession = await startSession(ws, "API bench", room.id);
    const apiMs = [];
    const a0 = Date.now();
    for (let i = 0; i < SCANS; i++) {
      const s = performance.now();
      const res = await ws.api(`/sessions/${apiSession.id}/scan`, {
        method: "POST",
        body: { code: labelled[i % LABELS].uniqueTag },
      });
      if (res.status !== 200) throw new Error(`scan: ${res.status}`);
      apiMs.push(performance.now() - s);
    }
    const apiStats = latencyStats(apiMs, Date.now() - a0);

    // 3. The replay of QUEUED offline scans.
    log(`creating ${QUEUED} assets for the replay`);
    const store = await makeLocation(ws, "Bench store");
    const many = [];
    await pool(
      6,
      Array.from({ length: 10 }, (_, k) => async () => {
        many.push(...(await makeAssets(ws, `Q${k}x`, QUEUED / 10, store.id)));
      }),
    );
    const replaySession = await startSession(ws, "Replay bench", store.id);
    await page.goto(`${ws.base}/scan/audit/${replaySession.id}`);
    await page.getByText(`0 of ${QUEUED} scanned`).waitFor({ timeout: 60_000 });
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await context.setOffline(true);
    const q0 = Date.now();
    await typeCodes(
      page,
      many.map((a) => a.uniqueTag),
    );
    await page.getByText(`${QUEUED} scans waiting to be sent.`).waitFor({ timeout: 120_000 });
    const queueSeconds = (Date.now() - q0) / 1000;
    const r0 = performance.now();
    await context.setOffline(false);
    await page.getByText(`${QUEUED} of ${QUEUED} scanned`).waitFor({ timeout: 300_000 });
    const replayMs = performance.now() - r0;
    const report = (await ws.api(`/sessions/${replaySession.id}/report`)).body;
    if (report.scanned !== QUEUED) throw new Error(`replay: the server counts ${report.scanned}, not ${QUEUED}`);

    console.log("\nField app scanner (ms, loopback, headless Chromium, fake camera)");
    for (const line of [
      `camera to screen (${cameraStats.requests} results)  p50 ${cameraStats.p50}  p99 ${cameraStats.p99}  (${cameraStats.seconds} s)`,
      `API POST /scan from Node (${apiStats.requests})  p50 ${apiStats.p50}  p99 ${apiStats.p99}`,
      `${QUEUED} scans queued offline in ${queueSeconds.toFixed(1)} s; replayed in ${(replayMs / 1000).toFixed(2)} s (${Math.round(QUEUED / (replayMs / 1000))} scans/s), server count ${report.scanned}, 0 lost, 0 duplicates`,
    ])
      console.log(`  ${line}`);
  } finally {
    await browser?.close();
    worker.stop();
    rmSync(preparedDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
