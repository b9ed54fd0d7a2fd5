import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * A password reset asked for by email (docs/auth.md#password-reset). The link's token is signed
 * (HMAC of the row id with the workspace's signing secret) and only its SHA-256 is stored; it is
 * single use (`used_at`) and expires an hour after it was asked for.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("password_resets_token_uq").on(t.tokenHash),
    // The per-user limit counts a user's recent requests.
    index("password_resets_user_idx").on(t.userId, t.createdAt),
  ],
);
