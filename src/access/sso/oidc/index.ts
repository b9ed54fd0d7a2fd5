export { discover, OidcError, type OidcMetadata, type OidcProviderConfig, OidcUnreachable } from "./discovery";
export {
  authorizationUrl,
  checkIssParameter,
  completeCodeFlow,
  ID_TOKEN_ALGORITHMS,
  newNonce,
  type OidcIdentity,
  pkcePair,
} from "./flow";
