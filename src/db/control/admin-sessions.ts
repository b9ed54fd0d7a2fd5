import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Platform-admin sign-ins. The `admin_session` cookie is a signed token naming its row, and the row
 * must be live: logout revokes it, and a change of the admin password (the secret) ends every
 * session signed in with the old one (`passwordTag` no longer matches).
 */
export const adminSessions = sqliteTable(
  "admin_sessions",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** Keyed hash of the admin password at sign-in (never the password or its plain hash). */
    passwordTag: text("password_tag").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("admin_sessions_expires_idx").on(t.expiresAt)],
);
