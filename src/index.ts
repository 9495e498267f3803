/**
 * `latchkey`: `createAuth`, the Web-standard auth handler (see `handler/`), the shared error classes
 * and the core types. Session tokens live in `latchkey/jwt`, providers in `latchkey/providers`, the
 * sign-in flow in `latchkey/oauth`.
 *
 * @module
 */
export { createAuth, MAX_BODY_BYTES } from "./handler/index.js"
export type { Auth, AuthConfig, AuthCallbacks, AuthEvents, AuthPages, AuthTheme, ClientErrorCode, CookieOption, CookiesOptions, HandlerCookie, AccountApi, AccountOwner, AccessTokenApi, AccessTokenApiOf, CookieSession } from "./handler/index.js"
export type { PasskeyErrorCode, PasskeySummary, RateLimitEvent, RateLimitPlugIn, TrustedProxy } from "./handler/index.js"
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
  AddressCollationError,
  AdapterError,
  MissingAdapterMethodError,
  LastSignInMethodError,
  SessionRequiredError,
  CredentialsSignin,
  WebAuthnError,
  MissingDependencyError,
  PasswordPolicyError,
  InvalidPasswordHashError,
  PasswordKdfUnavailableError,
  WeakSecretError,
  MIN_SECRET_LENGTH,
  NotAWebRequestError,
} from "./errors.js"
export type { InvalidTokenReason, KnownLatchkeyError, LatchkeyErrorCode, CheckName, OAuthErrorFields, WebAuthnErrorReason, PasswordPolicyReason, InvalidPasswordHashReason } from "./errors.js"
/**
 * The core types, re-exported from `latchkey/types` so one import serves an app.
 *
 * @example
 * ```ts
 * import type { Session, User, JWT } from "latchkey"
 * const user: User = { id: "42", name: "Ada" }
 * ```
 */
export type { Account, Awaitable, DefaultJWT, DefaultSession, DefaultUser, InferSession, JWT, LoggerInstance, Profile, Session, TokenSet, User } from "./types.js"
