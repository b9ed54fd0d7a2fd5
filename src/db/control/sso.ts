import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The protocol settings an owner saves (docs/sso.md#configuration-patch-tenantscurrentsaml-config), without the client secret. */
export interface SamlSettings {
  /** The IdP's entity id: the Issuer its responses must carry. */
  entityId: string;
  idpMetadataUrl: string | null;
  /** One or two PEM/base64 certificates pasted by the owner; wins over the metadata's. */
  idpCertificate: string | null;
  /** The IdP's sign-in URL when there is no metadata URL (our addition to the protocol settings). */
  idpSsoUrl: string | null;
  /** Accept RSA-SHA1 signatures (old IdPs); off by default. */
  allowSha1: boolean;
}
export interface OidcSettings {
  issuerUrl: string | null;
  discoveryUrl: string | null;
  clientId: string;
  scopes: string;
}

/** What was read from the IdP's metadata document when the config was saved. */
export interface IdpMetadataCache {
  entityId: string | null;
  ssoUrl: string | null;
  certificates: string[];
  fetchedAt: string;
}

/**
 * One workspace's single sign-on configuration (control database, beside the tenant registry, so
 * the sign-in routes read it without opening the tenant database first). `clientSecretEnc` is
 * AES-GCM ciphertext bound to the tenant id (src/access/sso/secret-box.ts); it is never returned.
 */
export const ssoConfigs = sqliteTable("sso_configs", {
  tenantId: text("tenant_id").primaryKey(),
  provider: text("provider", { enum: ["saml", "oidc"] }).notNull(),
  ssoOnlyEnabled: integer("sso_only_enabled", { mode: "boolean" }).notNull().default(false),
  settings: text("settings", { mode: "json" }).$type<SamlSettings | OidcSettings>().notNull(),
  clientSecretEnc: text("client_secret_enc"),
  metadata: text("metadata", { mode: "json" }).$type<IdpMetadataCache>(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
