import { eq } from "drizzle-orm";
import { loadSsoConfig, type SsoConfigRow, ssoFlags } from "../../access/sso/gate";
import { fetchIdpMetadata, MetadataError } from "../../access/sso/metadata";
import { sealSecret, secretKeyMaterial } from "../../access/sso/secret-box";
import { type IdpMetadataCache, type OidcSettings, type SamlSettings, ssoConfigs } from "../../db/control/sso";
import type { Bindings, TenantDb } from "../../env";
import { nowIso } from "../../platform/clock";
import { invalidField } from "../../platform/errors";
import { outboundPolicyFor } from "../../platform/outbound";
import { controlDb, type TenantRecord } from "../../tenancy/registry";
import { endPasswordSessions } from "../auth";
import type { SsoConfigInput } from "./schemas";
import type { SpUrls } from "./urls";
import { splitCertificates } from "./validate";

export const DEFAULT_SCOPES = "openid profile email";

export const isSaml = (row: SsoConfigRow): row is SsoConfigRow & { settings: SamlSettings } => row.provider === "saml";
export const isOidc = (row: SsoConfigRow): row is SsoConfigRow & { settings: OidcSettings } => row.provider === "oidc";

/** The IdP certificates in force: the pasted ones win over the metadata's. */
export function samlCertificates(row: SsoConfigRow & { settings: SamlSettings }): string[] {
  return row.settings.idpCertificate
    ? splitCertificates(row.settings.idpCertificate)
    : (row.metadata?.certificates ?? []);
}
export const samlSsoUrl = (row: SsoConfigRow & { settings: SamlSettings }) =>
  row.settings.idpSsoUrl ?? row.metadata?.ssoUrl ?? null;

/** GET /tenants/current/saml-config: the draft without the client secret. */
export function toSsoConfigView(tenant: TenantRecord, row: SsoConfigRow | undefined, urls: SpUrls) {
  const base = {
    configured: !!row,
    provider: row?.provider ?? null,
    ...ssoFlags(tenant, row),
    acsUrl: urls.acsUrl,
    redirectUri: urls.oidcRedirectUri,
    spEntityId: urls.spEntityId,
    spMetadataUrl: urls.spEntityId,
    updatedAt: row?.updatedAt ?? null,
  };
  if (!row) return base;
  if (isSaml(row)) {
    const s = row.settings;
    return {
      ...base,
      entityId: s.entityId,
      idpMetadataUrl: s.idpMetadataUrl,
      idpCertificate: s.idpCertificate,
      idpSsoUrl: samlSsoUrl(row),
      idpCertificateCount: samlCertificates(row).length,
      allowSha1: s.allowSha1,
      metadataFetchedAt: row.metadata?.fetchedAt ?? null,
    };
  }
  const s = row.settings as OidcSettings;
  return {
    ...base,
    issuerUrl: s.issuerUrl,
    discoveryUrl: s.discoveryUrl,
    clientId: s.clientId,
    clientSecretSet: !!row.clientSecretEnc,
    scopes: s.scopes,
  };
}

async function metadataFor(env: Bindings, url: string | undefined, now: string): Promise<IdpMetadataCache | null> {
  if (!url) return null;
  try {
    return await fetchIdpMetadata(url, outboundPolicyFor(env.ENVIRONMENT), now);
  } catch (err) {
    if (err instanceof MetadataError) throw invalidField("body.idpMetadataUrl", err.message);
    throw err;
  }
}

/**
 * Saves the draft (validated already): a metadata URL is fetched and parsed now, so a bad
 * document is a 400 on save instead of a broken sign-in later; the client secret is sealed.
 * One upsert: the whole protocol config is replaced, the gate kept when the body omits it.
 */
export async function saveSsoConfig(env: Bindings, tenant: TenantRecord, input: SsoConfigInput): Promise<SsoConfigRow> {
  const now = nowIso();
  const existing = await loadSsoConfig(env, tenant.id);
  const ssoOnlyEnabled = input.ssoOnlyEnabled ?? existing?.ssoOnlyEnabled ?? false;
  let settings: SamlSettings | OidcSettings;
  let metadata: IdpMetadataCache | null = null;
  let clientSecretEnc: string | null = null;
  if (input.provider === "saml") {
    metadata = await metadataFor(env, input.idpMetadataUrl, now);
    if (metadata?.entityId && input.entityId !== metadata.entityId) {
      throw invalidField("body.entityId", `does not match the metadata's entityID (${metadata.entityId})`);
    }
    settings = {
      entityId: input.entityId!,
      idpMetadataUrl: input.idpMetadataUrl ?? null,
      idpCertificate: input.idpCertificate?.trim() || null,
      idpSsoUrl: input.idpSsoUrl ?? null,
      allowSha1: input.allowSha1 ?? false,
    };
  } else {
    settings = {
      issuerUrl: input.issuerUrl ?? null,
      discoveryUrl: input.discoveryUrl ?? null,
      clientId: input.clientId!,
      scopes: input.scopes?.trim() || DEFAULT_SCOPES,
    };
    clientSecretEnc = await sealSecret(secretKeyMaterial(env), tenant.id, input.clientSecret!);
  }
  const row: SsoConfigRow = {
    tenantId: tenant.id,
    provider: input.provider as "saml" | "oidc",
    ssoOnlyEnabled,
    settings,
    clientSecretEnc,
    metadata,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await controlDb(env)
    .insert(ssoConfigs)
    .values(row)
    .onConflictDoUpdate({
      target: ssoConfigs.tenantId,
      set: { provider: row.provider, ssoOnlyEnabled, settings, clientSecretEnc, metadata, updatedAt: now },
    })
    .run();
  return row;
}

/**
 * With the SSO-only gate in force, no password-born session of anyone but the owners outlives the
 * save (docs/sso.md#the-sso-only-gate): their refresh tokens are revoked and their access tokens die. Refresh also
 * checks how a session was born, for sessions the gate reaches later (a plan upgrade).
 */
export async function enforceSsoGate(db: TenantDb, tenant: TenantRecord, row: SsoConfigRow): Promise<void> {
  if (!ssoFlags(tenant, row).ssoLoginEnabled) return;
  await db.batch([...endPasswordSessions(db, nowIso())]);
}

/**
 * Removes the workspace's SSO config: the SSO sign-in stops at once and, with the config, its
 * SSO-only gate (password sign-in works again). Sign-ins already started fail at their callback.
 */
export async function deleteSsoConfig(env: Bindings, tenant: TenantRecord): Promise<void> {
  await controlDb(env).delete(ssoConfigs).where(eq(ssoConfigs.tenantId, tenant.id)).run();
}

/** How long fetched IdP metadata is trusted before a sign-in fetches it again. */
export const METADATA_MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * Refreshes stale IdP metadata (older than a day) before a SAML sign-in, so a certificate the IdP
 * rolled over is picked up without the owner saving again. Best effort: when the fetch or the
 * document fails, the cached metadata stays in use (the failure shows as an old metadataFetchedAt).
 */
export async function refreshStaleMetadata(
  env: Bindings,
  row: SsoConfigRow & { settings: SamlSettings },
  now: Date,
): Promise<SsoConfigRow & { settings: SamlSettings }> {
  const url = row.settings.idpMetadataUrl;
  const fetchedAt = row.metadata ? Date.parse(row.metadata.fetchedAt) : 0;
  if (!url || now.getTime() - fetchedAt < METADATA_MAX_AGE_MS) return row;
  try {
    const metadata = await fetchIdpMetadata(url, outboundPolicyFor(env.ENVIRONMENT), now.toISOString());
    if (metadata.entityId && metadata.entityId !== row.settings.entityId) return row;
    await controlDb(env).update(ssoConfigs).set({ metadata }).where(eq(ssoConfigs.tenantId, row.tenantId)).run();
    return { ...row, metadata };
  } catch (err) {
    if (err instanceof MetadataError) return row;
    throw err;
  }
}
