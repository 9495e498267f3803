/**
 * `latchkey`: the root entry. For now it carries the shared error classes and core types; the
 * `createAuth` handler joins it when the handler lands. Session tokens live in `latchkey/jwt`.
 *
 * @module
 */
export {
  LatchkeyError,
  InvalidOptionError,
  MissingSecretError,
  InvalidTokenError,
  TokenExpiredError,
  NoMatchingSecretError,
  InvalidProviderError,
  EmailSendError,
  OAuthProfileError,
  InvalidCheckError,
  OAuthCallbackError,
  OAuthTokenError,
  OAuthProtocolError,
  RefreshNotSupportedError,
  RevocationNotSupportedError,
  OAuthAccountNotLinkedError,
} from "./errors.js"
export type { InvalidTokenReason, KnownLatchkeyError, LatchkeyErrorCode, CheckName, OAuthErrorFields } from "./errors.js"
export type * from "./types.js"
