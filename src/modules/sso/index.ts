/** Workspace single sign-on: configuration, sign-in routes (SAML, OIDC, social) and the sign-in page. */
export { runSsoCertificateReminders } from "./certificate-reminders";
export { ssoConfigRouter } from "./config-routes";
// The small HTML page kit (nonce, security headers, escaped layout), for other pages served by the Worker.
export { htmlPage, newNonce, pageHeaders } from "./html";
export type { SsoConfig } from "./schemas";
export { ssoSigninRouter } from "./signin-routes";
export { ssoPages } from "./ui-routes";
export { escapeXml } from "./xml-text";
