export { discover, OidcError, OidcUnreachable, type OidcMetadata, type OidcProviderConfig } from "./discovery";
export {
  authorizationUrl,
  checkIssParameter,
  completeCodeFlow,
  newNonce,
  pkcePair,
  ID_TOKEN_ALGORITHMS,
  type OidcIdentity,
} from "./flow";
