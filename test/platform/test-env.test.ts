import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * `npm test` must not read the developer's `.dev.vars` (or `.env`): the pool runs an isolated copy
 * of wrangler.toml (test/global/test-wrangler-config.mjs), and test/global/dev-vars-isolation.mjs
 * proves with sentinel files, before the pool starts, that such a file's keys cannot arrive. Here,
 * inside the pool: the Worker's text variables are exactly wrangler.toml's [vars] and the bindings
 * vitest.config.ts sets, so any key from elsewhere (a developer's extra SOCIAL_OIDC_*, say) fails.
 */
const EXPECTED = [
  "ADMIN_EMAIL",
  "ADMIN_PASSWORD",
  "BASE_URL",
  "ENVIRONMENT",
  "FILES_SIGNING_SECRET",
  "JWT_SECRET",
  "PASSWORD_ITERATIONS",
  "SSO_SECRET_KEY",
];

describe("the test Worker's environment", () => {
  it("holds only the variables the test configuration sets", () => {
    const text = Object.entries(env as unknown as Record<string, unknown>)
      .filter(([k, v]) => typeof v === "string" && !k.startsWith("__VITEST_POOL_WORKERS_")) // the plugin's own
      .map(([k]) => k)
      .sort();
    expect(text).toEqual(EXPECTED);
    expect(env.ENVIRONMENT).toBe("test");
  });
});
