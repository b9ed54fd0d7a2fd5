/** Workspace single sign-on: configuration, sign-in routes (SAML, OIDC, social) and the sign-in page. */
export { ssoConfigRouter } from "./config-routes";
export type { SsoConfig } from "./schemas";
export { ssoSigninRouter } from "./signin-routes";
export { ssoPages } from "./ui-routes";
