import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Idempotency keys (docs/api-platform.md): one row per credential and `Idempotency-Key`, holding
 * the request's hash and, once answered, the first answer to replay. `token` names the request
 * that holds the claim; the work's own batch checks it and marks the row `committed`.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** `key:<apiKeyId>` or `user:<userId>` (the database is the workspace's own). */
    credential: text("credential").notNull(),
    key: text("key").notNull(),
    token: text("token").notNull(),
    requestHash: text("request_hash").notNull(),
    /** running → committed (the work's batch ran) → done (the answer is stored). */
    state: text("state", { enum: ["running", "committed", "done"] }).notNull(),
    status: integer("status"),
    contentType: text("content_type"),
    body: text("body"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.credential, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
