import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { isolatedWranglerConfig } from "./test/global/test-wrangler-config.mjs";

/**
 * Tests run inside workerd with real local D1, Durable Objects, R2 and Queues. Storage is fresh per
 * test file; every test builds its own tenant, so tests share nothing. The pool below gives each
 * file plenty of tenant databases (local D1 enforces the real 100-parameter cap).
 */
const TEST_POOL_SIZE = 64;
const pool: Record<string, string> = {};
for (let i = 1; i <= TEST_POOL_SIZE; i++) pool[`TENANT_DB_T${String(i).padStart(3, "0")}`] = `test-tenant-${i}`;

/**
 * Failures the tests provoke on purpose (a broken queue, a throwing handler, a lost realtime object)
 * are logged by the code under test, as in production; keeping those lines out of the output leaves
 * only what is worth reading. Anything else still prints.
 */
const PROVOKED =
  /realtime down|queue unavailable|this tenant's database is broken|object overloaded|downstream unavailable|\bboom\b|SELECT secret FROM internals|at secret\.ts:1|Network connection lost|workspace \S+ is served from|The workspace is being moved; retry/;

/** The bare imports of src/ and test/ (the Worker's runtime dependencies and the tests' peers). */
const OPTIMIZED_DEPS = [
  "@hono/zod-openapi",
  "@pdf-lib/upng",
  "ajv/dist/2020",
  "ajv-formats",
  "@noble/hashes/hmac.js",
  "@noble/hashes/sha2.js",
  "@scalar/hono-api-reference",
  "@xmldom/xmldom",
  "csv-parse/sync",
  "drizzle-orm",
  "drizzle-orm/batch",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "fast-xml-parser",
  "hono",
  "hono/body-limit",
  "hono/cookie",
  "hono/http-exception",
  "hono/utils/http-status",
  "ical.js",
  "jose",
  "jsqr",
  "pdf-lib",
  "standardwebhooks",
  "uqr",
  "worker-mailer",
  "bwip-js/generic",
  "scim2-parse-filter",
  "scim-patch",
  "xml-core",
  "xmldsigjs",
  "zod",
];

export default defineConfig({
  // The dependency pre-bundle lives with the checkout, not in node_modules/.vite: checkouts that
  // share one node_modules (git worktrees) with different dependency lists would otherwise rebuild
  // each other's bundle mid-run ("There is a new version of the pre-bundle").
  cacheDir: ".wrangler/vite",
  plugins: [
    cloudflareTest({
      // A copy of wrangler.toml in a fresh directory, so no .dev.vars (or .env) of the developer is
      // read: the Worker under test sees wrangler.toml's [vars] and the bindings below, nothing else.
      wrangler: { configPath: isolatedWranglerConfig("./wrangler.toml") },
      miniflare: {
        d1Databases: pool,
        bindings: {
          ENVIRONMENT: "test",
          BASE_URL: "https://inventory.test",
          JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
          ADMIN_EMAIL: "admin@example.com",
          ADMIN_PASSWORD: "test-admin-password",
          FILES_SIGNING_SECRET: "test-files-secret-0123456789abcdef",
          // Empty: SSO secrets are sealed with JWT_SECRET in tests.
          SSO_SECRET_KEY: "",
          // Hashing at the production 100,000 iterations would dominate the suite's CPU time.
          PASSWORD_ITERATIONS: "1000",
        },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    onConsoleLog: (log) => !PROVOKED.test(log),
    setupFiles: ["./test/harness/setup.ts"],
    // Test identity providers (samlify, oidc-provider) on 127.0.0.1, started in Node.
    // First: no key of a .dev.vars or .env file reaches the pool (fails the run otherwise).
    globalSetup: [
      "./test/global/dev-vars-isolation.mjs",
      "./test/global/idp-servers.mjs",
      "./test/global/smtp-catcher.mjs",
    ],
    // Each test file loads the Worker's whole module graph afresh. Served file by file, the
    // dependencies alone took about 5 s per file (zod, pdf-lib, xmldsigjs and drizzle-orm are hundreds of
    // modules); pre-bundled once per run by Vite's optimizer they load in about 2 s. Every bare
    // import of src/ and test/ is listed, so the Worker and the tests share the same bundled copies.
    // One worker per core. Vitest's default for `run` is cores − 1, which is one worker on a 2-core
    // machine; a test file waits on D1 and timers often enough that two files share two cores well
    // (15 files: 113 s with one worker, 71 s with two).
    maxWorkers: "100%",
    // Files share their worker's runtime instead of getting one each. With `isolate: true` every file
    // started its own workerd (Miniflare with 65 D1 databases) and loaded the Worker's module graph
    // again: ~4 s of CPU per file before its first test, 139 files. Shared, a file costs its tests.
    // What a file must not inherit from the one before: its D1 rows and R2 objects, emptied before
    // each file by test/harness/setup.ts (test/harness/recycle.ts, which keeps the schemas, so a
    // recycled pool database is not migrated again); mocks, restored by Vitest between files; the
    // outbound transport, reset by the setup file. Durable Objects and rate limits are keyed by
    // workspace (a fresh id and slug per workspace); the admin host's sign-in budget is not, so the
    // harness signs in from a fresh address each time (test/harness/admin.ts).
    isolate: false,
    deps: { optimizer: { ssr: { enabled: true, include: OPTIMIZED_DEPS } } },
    // A bound for a hung test, not a speed target: on a loaded 2-core machine (load 14, helpers'
    // suites beside this one) the heaviest tests (an import of 150 rows in 8 chunks) took over 30 s.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
