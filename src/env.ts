import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Context } from "hono";
import type { Principal } from "./access/principal";
import type { TenantRecord } from "./db/control/schema";

/**
 * Worker bindings, typed once. This file sits under every floor, so it names nothing above it:
 * a Queue's message type and a Durable Object's class belong to the package that owns the
 * binding, which reads it through a typed accessor (`eventsQueue`, `webhooksQueue`,
 * `importsQueue`, `sessionObject`, `userRealtime`). The Worker's module type for `exports` is
 * declared in src/worker-globals.d.ts, which nothing imports.
 */
/** Worker bindings, typed once. Pool databases are `TENANT_DB_<suffix>` (see src/tenancy/pool.ts). */
export interface Bindings {
  CONTROL_DB: D1Database;
  FILES: R2Bucket;
  /** Static files of the API reference page (wrangler.toml [assets]). */
  ASSETS: Fetcher;
  /** Domain events (src/events/): read through `eventsQueue`. */
  EVENTS: Queue;
  /** Webhook deliveries (src/domain/webhook-delivery/): one message per delivery attempt that is due. */
  WEBHOOKS: Queue;
  /** CSV import chains (src/modules/import-export/import/background.ts): one message per chunk to write. */
  IMPORTS: Queue;
  /** Workspace moves between shards (src/modules/admin/move/queue.ts): one message per move to run. */
  MOVES: Queue;
  /** Development only (benchmarks): multiplies the webhook retry schedule, e.g. 0.001. */
  WEBHOOK_RETRY_SCALE?: string;
  ENVIRONMENT: string;
  /** This Worker's shard (src/tenancy/shard.ts); unset: `main`, a deployment without a router. */
  SHARD_NAME?: string;
  /** The D1 location hint this shard's pool databases were created with (docs/deploying.md#regions). */
  SHARD_REGION?: string;
  /** The D1 jurisdiction of this shard's pool databases (`eu`, `fedramp`), when they have one. */
  SHARD_JURISDICTION?: string;
  /**
   * How long a running workspace move may go without a sign of life before this shard's cron (or a
   * new POST …/move) takes it over, in seconds (src/modules/admin/move/resume.ts). Unset: 600.
   */
  MOVE_LEASE_SECONDS?: string;
  /** Development only ("1", the move tests): a destination shard refuses on cue (src/modules/admin/move/faults.ts). */
  MOVE_FAULTS?: string;
  /** Development only: trust a client-sent `cf-connecting-ip` (src/access/throttle.ts). Unset: ignored locally. */
  TRUST_CLIENT_IP?: string;
  /** "true" (benchmarks only): each consumed Queue batch logs its D1 statements (src/index.ts). */
  D1_QUEUE_LOG?: string;
  /** Public base URL (`https://example.com`); workspaces are `<slug>.<its host>`. Default http://localhost:8787. */
  BASE_URL?: string;
  JWT_SECRET: string;
  ADMIN_EMAIL: string;
  ADMIN_PASSWORD: string;
  FILES_SIGNING_SECRET: string;
  /** Key material for SSO client secrets at rest (AES-GCM via HKDF); falls back to JWT_SECRET when unset. */
  SSO_SECRET_KEY?: string;
  /** The platform's social OIDC provider (docs/sso.md#social-login-platform-level): issuer, client id and secret. Unset: no social login. */
  SOCIAL_OIDC_ISSUER?: string;
  SOCIAL_OIDC_CLIENT_ID?: string;
  SOCIAL_OIDC_CLIENT_SECRET?: string;
  /** Button label of the social login, e.g. "Google". */
  SOCIAL_OIDC_NAME?: string;
  /** Optional PBKDF2 iteration count for new password hashes (default and maximum 100000). */
  PASSWORD_ITERATIONS?: string;
  /** Limits sign-in style routes per client address (wrangler.toml `[[ratelimits]]`). */
  AUTH_LIMITER: RateLimit;
  /** Per-plan budgets per credential and per workspace (src/access/rate-limit.ts, wrangler.toml). */
  /** `off` turns the per-plan budgets off (benchmarks only; never set in production). */
  RATE_LIMITS?: string;
  RATE_LIMIT_KEY_FREE: RateLimit;
  RATE_LIMIT_KEY_PRO: RateLimit;
  RATE_LIMIT_KEY_ENTERPRISE: RateLimit;
  RATE_LIMIT_WORKSPACE_FREE: RateLimit;
  RATE_LIMIT_WORKSPACE_PRO: RateLimit;
  RATE_LIMIT_WORKSPACE_ENTERPRISE: RateLimit;
  /** Notification sends (src/modules/notifications/delivery/): one message per batch of sends that are due. */
  NOTIFICATIONS: Queue;
  /** Mail transport (docs/notifications.md#configuration-the-operators): `smtp`, `http`, or unset (mail off). */
  MAIL_TRANSPORT?: string;
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  /** "true": TLS from the first byte (port 465). */
  SMTP_SECURE?: string;
  /** "false": never upgrade with STARTTLS. */
  SMTP_STARTTLS?: string;
  SMTP_USERNAME?: string;
  SMTP_PASSWORD?: string;
  /** An HTTP email API (JSON `{from, to, subject, text, html, headers}`, Bearer token). */
  MAIL_HTTP_URL?: string;
  MAIL_HTTP_TOKEN?: string;
  /** Sender address and product name of every mail. */
  MAIL_FROM?: string;
  MAIL_FROM_NAME?: string;
  /** One InventorySession object per inventory session: idFromName(`${tenantId}:${sessionId}`). */
  INVENTORY_SESSION: DurableObjectNamespace;
  /** One realtime channel per workspace user: idFromName(`${tenantId}:${userId}`). */
  USER_REALTIME: DurableObjectNamespace;
  [poolBinding: `TENANT_DB_${string}`]: D1Database;
}

/**
 * A workspace database. Without drizzle's relational schema: the code reads through the query
 * builder only (never `db.query`), and passing the schema made every `drizzle()` call, one per
 * request, walk all the tables to build relational metadata (about a tenth of a request's CPU).
 */
export type TenantDb = DrizzleD1Database;

/** Per-request values set by middleware. `tenant`/`db` exist on tenant routes, `principal` on authenticated ones. */
export interface Variables {
  requestId: string;
  tenant: TenantRecord;
  db: TenantDb;
  principal: Principal;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}

export type AppContext = Context<AppEnv>;
