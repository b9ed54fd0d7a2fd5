import { loadSsoConfig } from "../../access/sso/gate";
import { createRouter, defineRoute, errorResponses, jsonBody, jsonContent } from "../../http/router";
import { deleteSsoConfig, enforceSsoGate, saveSsoConfig, toSsoConfigView } from "./config";
import { SsoConfigBody, SsoConfigSchema } from "./schemas";
import { spUrls } from "./urls";
import { validateSsoConfig } from "./validate";

const tags = ["Single sign-on"];

export const ssoConfigRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/tenants/current/saml-config",
      operationId: "getSsoConfig",
      tags,
      summary: "The workspace's SSO draft",
      description:
        "SAML or OIDC settings (never the client secret), the fixed callbacks of this workspace, and the `ssoAccess` / `ssoLoginEnabled` flags. `configured: false` until a config is saved.",
      responses: { 200: jsonContent(SsoConfigSchema, "The SSO draft") },
    }),
    async (c) =>
      c.json(
        toSsoConfigView(c.var.tenant, await loadSsoConfig(c.env, c.var.tenant.id), spUrls(c.env, c.var.tenant.slug)),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/tenants/current/saml-config",
      operationId: "updateSsoConfig",
      tags,
      summary: "Save the workspace's SSO config",
      description:
        "The body is the protocol config itself, replacing the previous one. 400s name the field: `provider` required; SAML needs `entityId`, `acsUrl` (this workspace's fixed callback) and `idpMetadataUrl` or `idpCertificate`; OIDC needs `clientId` and `clientSecret`; URLs must be valid. A metadata URL is fetched and parsed on save; an unreachable or unusable document is a 400 on `idpMetadataUrl`.",
      request: jsonBody(SsoConfigBody),
      responses: { 200: jsonContent(SsoConfigSchema, "The saved draft"), ...errorResponses(400) },
    }),
    async (c) => {
      const input = c.req.valid("json");
      const urls = spUrls(c.env, c.var.tenant.slug);
      await validateSsoConfig(input, urls);
      const row = await saveSsoConfig(c.env, c.var.tenant, input);
      await enforceSsoGate(c.var.db, c.var.tenant, row);
      return c.json(toSsoConfigView(c.var.tenant, row, urls), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/tenants/current/saml-config",
      operationId: "deleteSsoConfig",
      tags,
      summary: "Remove the workspace's SSO config",
      description:
        "SSO sign-in stops at once, and the SSO-only gate goes with the config (password sign-in works again). A sign-in already under way fails at its callback. Idempotent: without a config, also 204.",
      responses: { 204: { description: "Removed" } },
    }),
    async (c) => {
      await deleteSsoConfig(c.env, c.var.tenant);
      return c.body(null, 204);
    },
  );
