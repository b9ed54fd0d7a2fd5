/** Values that test/global/idp-servers.mjs hands to the tests (`inject`). */
declare module "vitest" {
  export interface ProvidedContext {
    samlIdpUrl: string;
    samlIdpEntity: string;
    samlIdpCert: string;
    oidcIssuer: string;
  }
}

export {};
