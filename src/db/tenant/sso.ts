import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Single-use sign-in requests: one row per redirect to an IdP. `id` is the SHA-256 of the `state`
 * (OIDC) or RelayState (SAML) handed to the browser; the callback consumes the row with a
 * conditional UPDATE, so a request answers at most one response.
 */
export const ssoRequests = sqliteTable(
  "sso_requests",
  {
    id: text("id").primaryKey(),
    /** `saml`, `oidc` (workspace IdP) or `social` (the platform's OIDC provider). */
    kind: text("kind", { enum: ["saml", "oidc", "social"] }).notNull(),
    /** SAML: the AuthnRequest ID that InResponseTo must echo. OIDC: the nonce. */
    requestId: text("request_id").notNull(),
    /** OIDC: the PKCE code verifier. */
    codeVerifier: text("code_verifier"),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("sso_requests_expires_idx").on(t.expiresAt)],
);

/** Assertion ids already used, kept until the assertion could no longer be accepted anyway. */
export const ssoReplays = sqliteTable(
  "sso_replays",
  {
    assertionId: text("assertion_id").primaryKey(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sso_replays_expires_idx").on(t.expiresAt)],
);
