export { readIdentity, type SamlIdentity } from "./identity";
export { certificateBody, certificateNotAfter, isUsableCertificate, MAX_IDP_CERTS } from "./keys";
export {
  type SamlVerdict,
  type SamlVerifySettings,
  type VerifiedResponse,
  verifySamlResponse,
  verifySamlSignatures,
} from "./verify";
