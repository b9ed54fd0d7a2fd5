import { defineConfig } from "vitest/config";

/**
 * Tests that drive a real browser (headless Chromium via playwright-core) against the Worker under
 * `wrangler dev`. They run in Node, not workerd; `npm test` runs them after the workerd suite.
 */
export default defineConfig({
  test: {
    // And the router+shards suite (test/shards/), which runs its own `wrangler dev` of three Workers.
    include: ["test/browser/**/*.browser.mjs", "test/shards/**/*.shards.mjs"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two files at once (one per core): a browser test mostly waits on its page, and the files share
    // nothing but the server (each makes its own workspaces). 4 files, 21 tests, back to back at load
    // 8-11: 128 s one file at a time, 89 s two at a time. Vitest's default for `run` is cores − 1.
    fileParallelism: true,
    maxWorkers: 2,
    // Files share their worker process (Playwright, Vitest's own modules) instead of starting one
    // each: about 0.5 CPU-s of Node a file. Each file's own module state is still its own, and the
    // files share nothing else (each makes its own workspaces, browsers and servers).
    isolate: false,
    // A page waits on the API (and the machine may be busy): expect.poll's default of 1 s is too
    // short for a page to settle. 15 s was too short at a load of 4 on two cores (the move test's
    // 40 clients beside a browser file); 30 s still fails a page that never gets there.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    // One wrangler dev for all files (the app built once): test/browser/global-setup.mjs.
    globalSetup: ["./test/browser/global-setup.mjs"],
  },
});
