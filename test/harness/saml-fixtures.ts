import type { SamlVerifySettings } from "../../src/access/sso/saml";
import adfsCert from "../fixtures/saml/certs/adfs-sha256-idp.pem?raw";
import nodeSamlCert from "../fixtures/saml/certs/node-saml-idp.pem?raw";
import oneloginCert from "../fixtures/saml/certs/onelogin-idp-feide-erlang.pem?raw";
import rubyCert from "../fixtures/saml/certs/ruby-saml-idp.pem?raw";
import feideCert from "../fixtures/saml/certs/xmlcrypto-feide-openidp.pem?raw";
import r01 from "../fixtures/saml/responses/01-valid-nodesaml-both-signed.xml?raw";
import r02 from "../fixtures/saml/responses/02-valid-nodesaml-assertion-signed-only.xml?raw";
import r03 from "../fixtures/saml/responses/03-policy-nodesaml-response-signed-only.xml?raw";
import r04 from "../fixtures/saml/responses/04-valid-onelogin-both-signed-until-2054.xml?raw";
import r05 from "../fixtures/saml/responses/05-valid-rubysaml-adfs-rsa-sha256-assertion-signed.xml?raw";
import r06 from "../fixtures/saml/responses/06-validsig-rubysaml-comment-in-nameid.xml?raw";
import r07 from "../fixtures/saml/responses/07-invalid-nodesaml-unsigned.xml?raw";
import r08 from "../fixtures/saml/responses/08-invalid-nodesaml-tampered-after-signing.xml?raw";
import r09 from "../fixtures/saml/responses/09-invalid-nodesaml-attacker-key-in-keyinfo.xml?raw";
import r12 from "../fixtures/saml/responses/12-invalid-rubysaml-cdata-injection-in-nameid.xml?raw";
import r13 from "../fixtures/saml/responses/13-invalid-xmlcrypto-digestvalue-comment-CVE-2025-29775.xml?raw";

export const certs = { nodeSamlCert, oneloginCert, rubyCert, adfsCert, feideCert };
export const responses = { r01, r02, r03, r04, r05, r06, r07, r08, r09, r12, r13 };

/**
 * The SP configuration and clock of each fixture family, from test/fixtures/saml/README.md. The
 * README's verdicts are stated for an SP that accepts a signature on the Response alone
 * (`wantAssertionsSigned: false`); fixture 03 is judged under both policies.
 */
export const nodeSaml: { settings: SamlVerifySettings; now: Date } = {
  now: new Date("2020-09-25T16:59:00Z"),
  settings: {
    idpCertificates: [nodeSamlCert],
    allowSha1: true,
    idpEntityId: "https://evil-corp.com",
    spEntityId: null,
    acsUrl: "https://evil-corp.madness.com/sso/callback",
    expectedInResponseTo: "_e8df3fe5f04237d25670",
    wantAssertionsSigned: false,
  },
};
export const onelogin = {
  now: new Date("2014-02-19T01:40:00Z"),
  settings: {
    idpCertificates: [oneloginCert],
    allowSha1: true,
    idpEntityId: "http://idp.example.com/",
    spEntityId: "http://stuff.com/endpoints/metadata.php",
    acsUrl: "https://pitbulk.no-ip.org/newonelogin/demo1/index.php?acs",
    expectedInResponseTo: "ONELOGIN_5fe9d6e499b2f0913206aab3f7191729049bb807",
    wantAssertionsSigned: false,
  } satisfies SamlVerifySettings,
};
export const adfs = {
  now: new Date("2011-06-22T12:50:00Z"),
  settings: {
    idpCertificates: [adfsCert],
    idpEntityId: "http://login.example.com/issuer",
    spEntityId: "example.com",
    acsUrl: "https://someone.example.com/endpoint",
    expectedInResponseTo: "_fc4a34b0-7efb-012e-caae-782bcb13bb38",
    wantAssertionsSigned: false,
  } satisfies SamlVerifySettings,
};
export const ruby = {
  now: new Date("2014-06-04T02:23:00Z"),
  settings: {
    idpCertificates: [rubyCert],
    allowSha1: true,
    idpEntityId: "https://app.onelogin.com/saml2",
    spEntityId: "https://someone.example.com/audience",
    acsUrl: "http://app.muda.no/sso/consume",
    expectedInResponseTo: "_fc4a34b0-7efb-012e-caae-782bcb13bb38",
    wantAssertionsSigned: false,
  } satisfies SamlVerifySettings,
};
export const xmlCrypto = {
  now: new Date("2012-07-03T11:33:00Z"),
  settings: {
    idpCertificates: [feideCert],
    allowSha1: true,
    idpEntityId: "https://openidp.feide.no",
    spEntityId: "passport-saml",
    acsUrl: "http://localhost:3000/login/callback",
    expectedInResponseTo: "_d766d16611ac0d14121b",
    wantAssertionsSigned: false,
  } satisfies SamlVerifySettings,
};
