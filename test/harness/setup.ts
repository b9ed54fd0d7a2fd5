import { env } from "cloudflare:workers";
import { applyMigrations } from "../../src/db/migrate";
import { CONTROL_MIGRATIONS } from "../../src/db/migrations.generated";
import { setOutboundTransport } from "../../src/platform/outbound";
import { logClaims, recycleStorage } from "./recycle";

// Test files share a runtime (vitest.config.ts: `isolate: false`), so each starts by emptying what
// the files before it stored (test/harness/recycle.ts); then the control database is migrated like
// `wrangler d1 migrations apply` (a no-op once the runtime's first file has done it).
await recycleStorage();
await applyMigrations(env.CONTROL_DB, CONTROL_MIGRATIONS);
await logClaims();

// No test reaches the network: outbound sends (webhooks, IdP calls) fail unless a test installs
// its own transport with setOutboundTransport (the Worker's modules are the tests' modules).
setOutboundTransport(async (req) => {
  throw new Error(`outbound network disabled in tests (${new URL(req.url).host})`);
});
