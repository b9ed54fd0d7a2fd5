import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * `requester` is the self-service role: it reaches only the routes the policy table marks
 * `selfService`, and there sees requestable assets and its own checkouts, bookings and requests.
 */
export const ROLES = ["owner", "admin", "member", "requester"] as const;
export type Role = (typeof ROLES)[number];

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    role: text("role", { enum: ROLES }).notNull(),
    status: text("status", { enum: ["active", "deactivated"] })
      .notNull()
      .default("active"),
    /** PBKDF2 hash, `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`; null for SSO-only users. */
    passwordHash: text("password_hash"),
    lastLoginAt: text("last_login_at"),
    /** Set on deactivation: access tokens issued before it stay dead after a reactivation. */
    tokensValidAfter: text("tokens_valid_after"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_uq").on(sql`lower(${t.email})`), index("users_role_idx").on(t.role, t.status)],
);

export const invites = sqliteTable(
  "invites",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("invites_token_uq").on(t.tokenHash),
    // One open invite per email.
    uniqueIndex("invites_open_email_uq")
      .on(sql`lower(${t.email})`)
      .where(sql`accepted_at IS NULL AND revoked_at IS NULL`),
  ],
);

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
    /**
     * How the session was born: `password` (sign-in or invite acceptance) or `sso`; successors keep
     * it. The SSO-only gate ends password-born sessions except the owner's (docs/sso.md).
     */
    method: text("method", { enum: ["password", "sso"] })
      .notNull()
      .default("password"),
  },
  (t) => [uniqueIndex("refresh_tokens_hash_uq").on(t.tokenHash), index("refresh_tokens_user_idx").on(t.userId)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** First characters of the token, shown in lists so users can tell keys apart. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdBy: text("created_by"),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
    /** JSON array of scopes (`inventory-items:read`, ...); null = every scope (keys made before scopes). */
    scopes: text("scopes"),
    /** Past this instant the key is refused (401); null = never expires. */
    expiresAt: text("expires_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_created_idx").on(t.createdAt, t.id)],
);
