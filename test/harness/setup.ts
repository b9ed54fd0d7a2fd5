import { env } from "cloudflare:workers";
import { CONTROL_MIGRATIONS } from "../../src/db/migrations.generated";
import { applyMigrations } from "../../src/db/migrate";

// Storage is fresh per test file; the control database is migrated like `wrangler d1 migrations apply`.
await applyMigrations(env.CONTROL_DB, CONTROL_MIGRATIONS);
