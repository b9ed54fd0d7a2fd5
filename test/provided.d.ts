/** Values that test/global/idp-servers.mjs hands to the tests (`inject`). */
declare module "vitest" {
  export interface ProvidedContext {
    samlIdpUrl: string;
    samlIdpEntity: string;
    samlIdpCert: string;
    oidcIssuer: string;
    /** The local mail catcher (test/global/smtp-catcher.mjs): its SMTP port and its HTTP side. */
    smtpPort: number;
    mailCatcherUrl: string;
  }
}

export {};
