import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, describe, expect, it } from "vitest";
import { openSecret } from "../../src/access/sso/secret-box";
import { ssoConfigs } from "../../src/db/control/sso";
import type { SsoConfig } from "../../src/modules/sso";
import { setOutboundTransport } from "../../src/platform/outbound";
import { createUser, userJwt } from "../harness/principals";
import { certs } from "../harness/saml-fixtures";
import { browser } from "../harness/sso-flow-helpers";
import { idpMetadata, spOf } from "../harness/sso-helpers";
import { api, type CallResult, createTenant, type Failure, type TestTenant } from "../harness/tenant";

const PATH = "/tenants/current/saml-config";
const owner = async (t: TestTenant) => ({ jwt: await userJwt(t) });
/** PATCHes the config; the body is read as the error it is in most tests (`patch<SsoConfig>` when saved). */
const patch = async <T = Failure>(t: TestTenant, body: unknown) =>
  api<T>(t, PATH, { method: "PATCH", body, auth: await owner(t) });
const samlBody = (t: TestTenant, extra: Record<string, unknown> = {}) => ({
  provider: "saml",
  entityId: "https://idp.example.com/entity",
  acsUrl: spOf(t).acsUrl,
  idpCertificate: certs.adfsCert,
  ...extra,
});
const oidcBody = (extra: Record<string, unknown> = {}) => ({
  provider: "oidc",
  issuerUrl: "https://login.example.com",
  clientId: "client-1",
  clientSecret: "s3cret-value",
  ...extra,
});

let restore: (() => void) | undefined;
afterEach(() => restore?.());

const expectField = (res: CallResult<Failure>, field: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe("validation_failed");
  expect(res.body.details.map((d: { path: string }) => d.path)).toContain(`body.${field}`);
};

describe("GET/PATCH /tenants/current/saml-config", () => {
  it("is the owner's only: admins and members get 403, API keys 403", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const [admin, member] = [await createUser(t, "admin"), await createUser(t, "member")];
    expect((await api(t, PATH, { auth: { jwt: admin.jwt } })).status).toBe(403);
    expect((await api(t, PATH, { auth: { jwt: member.jwt } })).status).toBe(403);
    expect((await api(t, PATH, { method: "PATCH", body: samlBody(t), auth: { jwt: admin.jwt } })).status).toBe(403);
    expect((await api(t, PATH)).status).toBe(403);
  });

  it("shows the fixed callbacks and the plan flags before anything is saved", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const res = await api(t, PATH, { auth: await owner(t) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      configured: false,
      provider: null,
      ssoAccess: true,
      ssoOnlyEnabled: false,
      ssoLoginEnabled: false,
      acsUrl: spOf(t).acsUrl,
      redirectUri: spOf(t).redirectUri,
      spEntityId: spOf(t).spEntityId,
    });
    const pro = await createTenant({ plan: "pro" });
    expect((await api<SsoConfig>(pro, PATH, { auth: await owner(pro) })).body.ssoAccess).toBe(false);
  });

  it("applies the five configuration rules in order, each a 400 naming the field", async () => {
    const t = await createTenant({ plan: "enterprise" });
    expectField(await patch(t, { entityId: "x" }), "provider");
    expectField(await patch(t, { provider: "ldap" }), "provider");
    expectField(await patch(t, samlBody(t, { entityId: undefined })), "entityId");
    expectField(await patch(t, samlBody(t, { acsUrl: undefined })), "acsUrl");
    expectField(await patch(t, samlBody(t, { idpCertificate: undefined })), "idpMetadataUrl");
    expectField(await patch(t, oidcBody({ clientId: undefined })), "clientId");
    expectField(await patch(t, oidcBody({ clientSecret: undefined })), "clientSecret");
    expectField(await patch(t, samlBody(t, { acsUrl: "not a url" })), "acsUrl");
    expectField(await patch(t, samlBody(t, { idpMetadataUrl: "nope" })), "idpMetadataUrl");
    expectField(await patch(t, oidcBody({ issuerUrl: "::" })), "issuerUrl");
    expectField(await patch(t, oidcBody({ discoveryUrl: "x/y" })), "discoveryUrl");
    expectField(await patch(t, oidcBody({ redirectUri: "relative/path" })), "redirectUri");
  });

  it("refuses a tenant id, another host's callbacks, the other protocol's fields and a bad certificate", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const withTenant = await patch(t, samlBody(t, { tenantId: t.id }));
    expect(withTenant.status).toBe(400);
    expect(JSON.stringify(withTenant.body.details)).toContain("tenantId");
    expectField(
      await patch(t, samlBody(t, { acsUrl: "https://evil.example.com/api/v1/auth/saml/callback" })),
      "acsUrl",
    );
    expectField(
      await patch(t, oidcBody({ redirectUri: "https://evil.example.com/api/v1/auth/oidc/callback" })),
      "redirectUri",
    );
    expectField(await patch(t, samlBody(t, { clientId: "x" })), "clientId");
    expectField(await patch(t, oidcBody({ entityId: "x" })), "entityId");
    expectField(
      await patch(t, samlBody(t, { idpCertificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" })),
      "idpCertificate",
    );
    expectField(
      await patch(t, samlBody(t, { idpCertificate: `${certs.adfsCert}\n${certs.nodeSamlCert}\n${certs.rubyCert}` })),
      "idpCertificate",
    );
  });

  it("DELETE removes the config and its SSO-only gate: password sign-in works again; idempotent", async () => {
    const t = await createTenant({ plan: "enterprise" });
    expect((await patch<SsoConfig>(t, samlBody(t, { ssoOnlyEnabled: true }))).status).toBe(200);
    // Owners keep password sign-in under the gate (break-glass); a member does not.
    const member = await createUser(t, "member");
    const login = () => api(t, "/auth/login", { body: { email: member.email, password: member.password }, auth: null });
    expect((await login()).status).toBe(403);
    const admin = await createUser(t, "admin");
    expect((await api(t, PATH, { method: "DELETE", auth: { jwt: admin.jwt } })).status).toBe(403);
    expect((await api(t, PATH, { method: "DELETE", auth: await owner(t) })).status).toBe(204);
    expect((await api<SsoConfig>(t, PATH, { auth: await owner(t) })).body).toMatchObject({
      configured: false,
      ssoOnlyEnabled: false,
      ssoLoginEnabled: false,
    });
    expect((await login()).status).toBe(200);
    expect((await api(t, PATH, { method: "DELETE", auth: await owner(t) })).status).toBe(204);
  });

  it("saves SAML with a pasted certificate (two for rollover) and keeps the gate when omitted", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const saved = await patch<SsoConfig>(
      t,
      samlBody(t, {
        ssoOnlyEnabled: true,
        idpSsoUrl: "https://idp.example.com/sso",
        idpCertificate: `${certs.adfsCert}\n${certs.nodeSamlCert}`,
      }),
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      configured: true,
      provider: "saml",
      entityId: "https://idp.example.com/entity",
      idpCertificateCount: 2,
      idpSsoUrl: "https://idp.example.com/sso",
      ssoOnlyEnabled: true,
      ssoLoginEnabled: true,
      allowSha1: false,
    });
    const again = await patch<SsoConfig>(t, samlBody(t));
    expect(again.body).toMatchObject({ ssoOnlyEnabled: true, idpCertificateCount: 1 });
    expect((await api(t, PATH, { auth: await owner(t) })).body).toMatchObject({
      configured: true,
      provider: "saml",
      ssoOnlyEnabled: true,
    });
  });

  it("stores the OIDC client secret encrypted, bound to the workspace, and never returns it", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const saved = await patch<SsoConfig>(t, oidcBody());
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      provider: "oidc",
      clientId: "client-1",
      clientSecretSet: true,
      scopes: "openid profile email",
      redirectUri: spOf(t).redirectUri,
    });
    expect(JSON.stringify(saved.body)).not.toContain("s3cret-value");
    expect(JSON.stringify((await api(t, PATH, { auth: await owner(t) })).body)).not.toContain("s3cret-value");
    const row = await drizzle(env.CONTROL_DB).select().from(ssoConfigs).where(eq(ssoConfigs.tenantId, t.id)).get();
    expect(JSON.stringify(row)).not.toContain("s3cret-value");
    expect(await openSecret(env.JWT_SECRET, t.id, row!.clientSecretEnc!)).toBe("s3cret-value");
    await expect(openSecret(env.JWT_SECRET, "another-tenant", row!.clientSecretEnc!)).rejects.toThrow();
  });

  it("fetches IdP metadata through the outbound guard: SSO endpoint and up to two signing certificates, cached", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const seen: string[] = [];
    let doc = idpMetadata({
      entityId: "https://idp.example.com/entity",
      ssoUrl: "https://idp.example.com/sso",
      certs: [certs.adfsCert, certs.nodeSamlCert],
    });
    let status = 200;
    restore = setOutboundTransport(async (req) => {
      seen.push(`${req.method} ${req.url} ${req.redirect}`);
      return new Response(doc, { status });
    });
    const body = samlBody(t, { idpCertificate: undefined, idpMetadataUrl: "https://idp.example.com/metadata" });
    const saved = await patch<SsoConfig>(t, body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      idpSsoUrl: "https://idp.example.com/sso",
      idpCertificateCount: 2,
      metadataFetchedAt: expect.any(String),
    });
    expect(seen).toEqual(["GET https://idp.example.com/metadata manual"]);
    // Cached: reading the config does not fetch again.
    await api(t, PATH, { auth: await owner(t) });
    expect(seen).toHaveLength(1);

    expectField(await patch(t, { ...body, entityId: "https://other.example.com" }), "entityId");
    doc = "<html>not metadata</html>";
    expectField(await patch(t, body), "idpMetadataUrl");
    doc = "<md:EntityDescriptor";
    expectField(await patch(t, body), "idpMetadataUrl");
    doc = idpMetadata({
      entityId: "https://idp.example.com/entity",
      ssoUrl: "https://idp.example.com/sso",
      certs: [certs.adfsCert, certs.nodeSamlCert, certs.rubyCert],
    });
    const three = await patch(t, body);
    expectField(three, "idpMetadataUrl");
    expect(three.body.message).toMatch(/at most 2/);
    status = 302;
    expectField(await patch(t, body), "idpMetadataUrl");
  });

  it("refreshes metadata older than a day when a sign-in starts; a failed refresh keeps the cached copy", async () => {
    const t = await createTenant({ plan: "enterprise" });
    let doc = idpMetadata({
      entityId: "https://idp.example.com/entity",
      ssoUrl: "https://idp.example.com/sso",
      certs: [certs.adfsCert, certs.nodeSamlCert],
    });
    let status = 200;
    let fetches = 0;
    restore = setOutboundTransport(async () => {
      fetches++;
      return new Response(doc, { status });
    });
    const saved = await patch<SsoConfig>(
      t,
      samlBody(t, { idpCertificate: undefined, idpMetadataUrl: "https://idp.example.com/metadata" }),
    );
    expect(saved.status).toBe(200);
    const control = drizzle(env.CONTROL_DB);
    const age = async (ms: number) => {
      const row = await control.select().from(ssoConfigs).where(eq(ssoConfigs.tenantId, t.id)).get();
      await control
        .update(ssoConfigs)
        .set({ metadata: { ...row!.metadata!, fetchedAt: new Date(Date.now() - ms).toISOString() } })
        .where(eq(ssoConfigs.tenantId, t.id))
        .run();
    };
    const login = async () => {
      const res = await browser(`${spOf(t).origin}/api/v1/auth/sso-login`);
      return { status: res.status, body: res.status === 302 ? null : await res.text(), headers: res.headers };
    };

    // Fresh: no fetch.
    const first = await login();
    expect(first.status, JSON.stringify(first.body)).toBe(302);
    expect(fetches).toBe(1);

    // Stale and the IdP is down: the cached metadata is used.
    await age(25 * 3600_000);
    status = 500;
    expect((await login()).status).toBe(302);
    expect(fetches).toBe(2);
    expect((await api<SsoConfig>(t, PATH, { auth: await owner(t) })).body.idpCertificateCount).toBe(2);

    // Stale and the IdP rolled its certificate: picked up.
    status = 200;
    doc = idpMetadata({
      entityId: "https://idp.example.com/entity",
      ssoUrl: "https://idp.example.com/sso2",
      certs: [certs.rubyCert],
    });
    const res = await login();
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^https:\/\/idp\.example\.com\/sso2\?SAMLRequest=/);
    const view = (await api<SsoConfig>(t, PATH, { auth: await owner(t) })).body;
    expect(view).toMatchObject({ idpCertificateCount: 1, idpSsoUrl: "https://idp.example.com/sso2" });
    expect(Date.now() - Date.parse(view.metadataFetchedAt!)).toBeLessThan(60_000);
  });

  it("refuses metadata URLs on loopback, private addresses and plain http before sending anything", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const seen: string[] = [];
    restore = setOutboundTransport(async (req) => {
      seen.push(req.url);
      return new Response("", { status: 200 });
    });
    for (const url of [
      "https://127.0.0.1/metadata",
      "https://10.0.0.8/m",
      "http://idp.example.com/m",
      "https://localhost/m",
      "https://[::1]/m",
      "https://169.254.169.254/latest",
    ]) {
      const res = await patch(t, samlBody(t, { idpCertificate: undefined, idpMetadataUrl: url }));
      expectField(res, "idpMetadataUrl");
      expect(res.body.message).toMatch(/address refused/);
    }
    expect(seen).toEqual([]);
  });
});
