import { z } from "@hono/zod-openapi";

export const BootstrapSchema = z
  .object({
    exists: z
      .boolean()
      .openapi({ description: "The workspace exists (and is active). When false, no other field is present." }),
    tenantId: z.string().optional(),
    ssoProviders: z
      .enum(["saml", "oidc"])
      .nullable()
      .optional()
      .openapi({ description: "The configured SSO protocol, `saml` or `oidc`; null when none." }),
    ssoConfigured: z.boolean().optional().openapi({ description: "An SSO config record exists." }),
    ssoLoginEnabled: z.boolean().optional().openapi({
      description: "The owner enabled the SSO-only gate (and the plan includes SSO): the screen offers SSO.",
    }),
    ssoOnlyEnabled: z.boolean().optional().openapi({ description: "The SSO-only gate is on." }),
    ssoAccess: z.boolean().optional().openapi({ description: "The plan includes SSO." }),
    socialLogin: z.object({ name: z.string() }).nullable().optional().openapi({
      description: "The platform's social login, when the operator configured one (GET /auth/social-login).",
    }),
  })
  .openapi("AuthBootstrap");

export const SamlCallbackForm = z.object({
  SAMLResponse: z.string().openapi({ description: "Base64 of the IdP's samlp:Response." }),
  RelayState: z.string().openapi({ description: "The state we sent with the AuthnRequest." }),
});

export const OidcCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
