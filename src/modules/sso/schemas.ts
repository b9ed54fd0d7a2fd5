import { z } from "@hono/zod-openapi";

const url = z.string().max(2048).openapi({ format: "uri" });

/**
 * The PATCH body: the protocol config itself, no tenant id. Fields are checked by
 * `validateSsoConfig` in a fixed order so each 400 names the field; the schema only fixes
 * types and refuses unknown fields.
 */
export const SsoConfigBody = z
  .strictObject({
    provider: z.string().openapi({ enum: ["saml", "oidc"], description: "Required: `saml` or `oidc`." }),
    ssoOnlyEnabled: z.boolean().optional().openapi({ description: "The SSO-only gate; kept as it was when omitted." }),
    entityId: z
      .string()
      .max(1024)
      .optional()
      .openapi({ description: "SAML, required: the IdP's entity id (the Issuer of its responses)." }),
    acsUrl: url.optional().openapi({
      description:
        "SAML, required: must be this workspace's fixed callback `https://<workspace host>/api/v1/auth/saml/callback` (GET shows it); any other value is a 400.",
    }),
    idpMetadataUrl: url.optional().openapi({
      description:
        "SAML: the IdP metadata URL, fetched on save (https, public address, 512 KiB, 10 s, no redirects). One of idpMetadataUrl and idpCertificate is required.",
    }),
    idpCertificate: z.string().max(16384).optional().openapi({
      description:
        "SAML: the IdP signing certificate (PEM or base64); two PEM blocks for a rollover. Wins over the metadata's certificates.",
    }),
    idpSsoUrl: url
      .optional()
      .openapi({ description: "SAML extension: the IdP sign-in URL (HTTP-Redirect) when there is no metadata URL." }),
    allowSha1: z
      .boolean()
      .optional()
      .openapi({ description: "SAML extension: accept RSA-SHA1 signatures from an old IdP. Default false." }),
    issuerUrl: url.optional().openapi({
      description:
        "OIDC: the issuer; its `/.well-known/openid-configuration` is used unless discoveryUrl is given. One of the two is needed to sign in.",
    }),
    discoveryUrl: url.optional().openapi({ description: "OIDC: the discovery document URL." }),
    clientId: z.string().max(512).optional().openapi({ description: "OIDC, required." }),
    clientSecret: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: "OIDC, required; stored encrypted and never returned." }),
    redirectUri: url.optional().openapi({
      description:
        "OIDC: must be this workspace's fixed callback `https://<workspace host>/api/v1/auth/oidc/callback` when given.",
    }),
    scopes: z.string().max(512).optional().openapi({
      description: "OIDC: space-separated; default `openid profile email` (`openid` and `email` are always requested).",
    }),
  })
  .openapi("SsoConfigUpdate");
export type SsoConfigInput = z.infer<typeof SsoConfigBody>;

export const SsoConfigSchema = z
  .object({
    configured: z.boolean().openapi({ description: "An SSO config record exists." }),
    provider: z.enum(["saml", "oidc"]).nullable(),
    ssoOnlyEnabled: z.boolean(),
    ssoAccess: z.boolean().openapi({ description: "The plan includes SSO." }),
    ssoLoginEnabled: z.boolean().openapi({
      description:
        "The SSO-only gate is on and the plan includes SSO: the sign-in screen offers SSO and refuses passwords except the owner's.",
    }),
    acsUrl: z.string().openapi({ description: "The fixed SAML callback of this workspace." }),
    redirectUri: z.string().openapi({ description: "The fixed OIDC callback of this workspace." }),
    spEntityId: z
      .string()
      .openapi({ description: "Our SAML entity id (= the SP metadata URL); the audience IdPs must name." }),
    spMetadataUrl: z.string(),
    entityId: z.string().nullable().optional(),
    idpMetadataUrl: z.string().nullable().optional(),
    idpCertificate: z.string().nullable().optional(),
    idpSsoUrl: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The IdP sign-in URL in use (from the metadata or the config)." }),
    idpCertificateCount: z.number().int().optional(),
    allowSha1: z.boolean().optional(),
    metadataFetchedAt: z.string().nullable().optional(),
    issuerUrl: z.string().nullable().optional(),
    discoveryUrl: z.string().nullable().optional(),
    clientId: z.string().optional(),
    clientSecretSet: z
      .boolean()
      .optional()
      .openapi({ description: "A client secret is stored (it is never returned)." }),
    scopes: z.string().optional(),
    updatedAt: z.string().nullable(),
  })
  .openapi("SsoConfig");

// Response type, for the tests and the client.
export type SsoConfig = z.infer<typeof SsoConfigSchema>;
