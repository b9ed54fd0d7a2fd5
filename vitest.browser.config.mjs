import { defineConfig } from "vitest/config";

/**
 * Tests that drive a real browser (headless Chromium via playwright-core) against the Worker under
 * `wrangler dev`. They run in Node, not workerd; `npm test` runs them after the workerd suite.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.mjs"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    // One wrangler dev for all files (the app built once): test/browser/global-setup.mjs.
    globalSetup: ["./test/browser/global-setup.mjs"],
  },
});
