export {
  verifySamlResponse,
  verifySamlSignatures,
  type SamlVerdict,
  type SamlVerifySettings,
  type VerifiedResponse,
} from "./verify";
export { readIdentity, type SamlIdentity } from "./identity";
export { certificateBody, isUsableCertificate, MAX_IDP_CERTS } from "./keys";
