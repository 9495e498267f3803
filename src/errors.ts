/**
 * Every error latchkey throws on purpose. Each class has a stable `code` that callers can switch
 * on; {@link KnownLatchkeyError} is their union, so `switch (err.code)` narrows. Messages never
 * carry a secret, a token or token contents. Exported from the root `latchkey`.
 *
 * @module
 */

/**
 * The base class of every latchkey error. Its `cause`, when it has one, is another latchkey error
 * or a plain `{ name, code?, message }` summary of a foreign one (from oauth4webapi, fetch or
 * a callback): foreign errors keep tokens and codes in their own causes and properties, and a
 * logger that walks the cause chain would print them.
 *
 * @example
 * ```ts
 * import { LatchkeyError } from "latchkey"
 * try { await decode({ token, secret, salt }) } catch (err) {
 *   if (err instanceof LatchkeyError) console.warn(err.code)
 * }
 * ```
 */
export class LatchkeyError extends Error {
  /** A stable, machine-readable identifier of the error kind. */
  readonly code: string = "ERR_LATCHKEY"

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options === undefined || !("cause" in options) ? undefined : { cause: safeCause(options.cause) })
    this.name = this.constructor.name
  }
}

/**
 * What a latchkey error keeps of a foreign cause: the name, the `code` when there is a string one,
 * and the message. A latchkey error's cause is logged with it, and loggers walk the whole chain.
 */
interface ErrorSummary {
  readonly name: string
  readonly code?: string
  readonly message: string
}

/**
 * A foreign cause (from oauth4webapi, fetch, a callback) reduced to an {@link ErrorSummary}.
 * Foreign errors keep what they saw in their own causes and properties: oauth4webapi's hold the
 * callback parameters with the authorization code, or the token response with the access and
 * refresh tokens, and its JWT errors the claims they checked. None of that may reach a logger, so
 * it is dropped here, once, for every latchkey error. A latchkey cause is kept as it is: it was
 * reduced the same way when it was made.
 */
function safeCause(cause: unknown): LatchkeyError | ErrorSummary {
  if (cause instanceof LatchkeyError) return cause
  if (typeof cause !== "object" || cause === null) return { name: typeof cause, message: "a value that is not an error was thrown." }
  const { name, code, message } = cause as { name?: unknown; code?: unknown; message?: unknown }
  return {
    name: typeof name === "string" ? name : "Error",
    ...(typeof code === "string" ? { code } : {}),
    message: typeof message === "string" ? message : "",
  }
}

/**
 * A function was called with an option it cannot use: a wrong type, an out-of-range number, a
 * cookie name the cookie grammar forbids. `option` names the offending option.
 *
 * @example
 * ```ts
 * import { InvalidOptionError } from "latchkey"
 * // encode({ token, secret, salt, maxAge: -1 }) rejects with InvalidOptionError, option "maxAge"
 * ```
 */
export class InvalidOptionError extends LatchkeyError {
  override readonly code = "ERR_INVALID_OPTION"
  /** The option that was rejected. */
  readonly option: string

  constructor(option: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.option = option
  }
}

/**
 * No secret was given and none is set in the environment (`AUTH_SECRET`, `AUTH_SECRET_1`…`_3`).
 *
 * @example
 * ```ts
 * import { MissingSecretError } from "latchkey"
 * // getToken({ req }) with no AUTH_SECRET set rejects with MissingSecretError
 * ```
 */
export class MissingSecretError extends LatchkeyError {
  override readonly code = "ERR_MISSING_SECRET"
}

/**
 * Why a token was judged invalid. Stable; safe to log.
 *
 * @example
 * ```ts
 * import { InvalidTokenError, type InvalidTokenReason } from "latchkey"
 * function reasonOf(error: unknown): InvalidTokenReason | undefined {
 *   return error instanceof InvalidTokenError ? error.reason : undefined // such as "too_large"
 * }
 * ```
 */
export type InvalidTokenReason =
  | "malformed"
  | "too_large"
  | "unsupported_alg"
  | "unsupported_enc"
  | "unsupported_zip"
  | "unsupported_crit"
  | "unexpected_header"
  | "decryption_failed"
  | "invalid_claims"
  | "not_yet_valid"
  | "invalid_chunks"

/**
 * A token is malformed, too large, uses an algorithm latchkey does not accept, failed its
 * authentication tag, or carries claims that are not valid. `reason` says which.
 *
 * @example
 * ```ts
 * import { InvalidTokenError } from "latchkey"
 * try { await decode({ token: "x.y", secret, salt }) } catch (err) {
 *   if (err instanceof InvalidTokenError) console.log(err.reason) // "malformed"
 * }
 * ```
 */
export class InvalidTokenError extends LatchkeyError {
  override readonly code = "ERR_INVALID_TOKEN"
  /** Which check the token failed. */
  readonly reason: InvalidTokenReason

  constructor(reason: InvalidTokenReason, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.reason = reason
  }
}

/**
 * The token was valid but its `exp` lies in the past, beyond the allowed clock skew.
 *
 * @example
 * ```ts
 * import { TokenExpiredError } from "latchkey"
 * // decode(...) of a token whose exp passed more than 15 s ago rejects with TokenExpiredError
 * ```
 */
export class TokenExpiredError extends LatchkeyError {
  override readonly code = "ERR_TOKEN_EXPIRED"
  /** When the token expired, in seconds since the epoch. */
  readonly expiredAt: number

  constructor(expiredAt: number) {
    super("The token has expired.")
    this.expiredAt = expiredAt
  }
}

/**
 * None of the configured secrets can open the token. The usual cause is a wrong or rotated-out
 * secret, or a wrong salt: the salt defaults to the cookie name, so reading a
 * `__Secure-authjs.session-token` cookie with the plain cookie name's salt fails this way.
 *
 * @example
 * ```ts
 * import { NoMatchingSecretError } from "latchkey"
 * // decode({ token, secret: "another secret", salt }) rejects with NoMatchingSecretError
 * ```
 */
export class NoMatchingSecretError extends LatchkeyError {
  override readonly code = "ERR_NO_MATCHING_SECRET"

  constructor() {
    super(
      "No configured secret matches this token. Check that the secret is right and still in the rotation list, " +
        "and that the salt (the cookie name by default) is the one the token was written with."
    )
  }
}

/**
 * A provider's configuration cannot work: a duplicate id, a missing client id, an endpoint that is
 * not https, an unknown check. `provider` and `field` say where; the message says what.
 *
 * @example
 * ```ts
 * import { InvalidProviderError } from "latchkey"
 * // resolveProviders([GitHub({})], { baseUrl }) with no AUTH_GITHUB_ID throws
 * // InvalidProviderError: provider "github", field "clientId"
 * ```
 */
export class InvalidProviderError extends LatchkeyError {
  override readonly code = "ERR_INVALID_PROVIDER"
  /** The id of the provider at fault (or its position, when it has no id). */
  readonly provider: string
  /** The configuration field at fault. */
  readonly field: string

  constructor(provider: string, field: string, message: string) {
    super(`Provider "${provider}": ${message}`)
    this.provider = provider
    this.field = field
  }
}

/**
 * An email provider's API refused to send the verification email. Carries the HTTP status; the
 * response body is not included because it may echo the message or the recipient.
 *
 * @example
 * ```ts
 * import { EmailSendError } from "latchkey"
 * // Resend({ apiKey: "wrong" }).sendVerificationRequest(...) rejects with EmailSendError, status 401
 * ```
 */
export class EmailSendError extends LatchkeyError {
  override readonly code = "ERR_EMAIL_SEND"
  /** The provider id, such as `resend`. */
  readonly provider: string
  /** The HTTP status the email API answered with. */
  readonly status: number

  constructor(provider: string, status: number) {
    super(`The ${provider} API refused to send the verification email (HTTP ${status}).`)
    this.provider = provider
    this.status = status
  }
}

/**
 * The provider's profile could not be read: the userinfo endpoint answered a non-2xx status or
 * something other than JSON, or the profile callback threw (then `cause` summarizes its error).
 *
 * @example
 * ```ts
 * import { OAuthProfileError } from "latchkey"
 * // a GitHub /user request answered 401 gives OAuthProfileError, status 401
 * ```
 */
export class OAuthProfileError extends LatchkeyError {
  override readonly code = "ERR_OAUTH_PROFILE"
  /** The provider id. */
  readonly provider: string
  /** The HTTP status of the failed response, when there was one. */
  readonly status: number | undefined

  constructor(provider: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(`Provider "${provider}": ${message}`, options)
    this.provider = provider
    this.status = options?.status
  }
}

/**
 * Which sign-in check failed.
 *
 * @example
 * ```ts
 * import { InvalidCheckError, type CheckName } from "latchkey"
 * function failedCheck(error: unknown): CheckName | undefined {
 *   return error instanceof InvalidCheckError ? error.check : undefined // "state", "pkce" or "nonce"
 * }
 * ```
 */
export type CheckName = "state" | "pkce" | "nonce"

/**
 * A sign-in check failed at the callback: its cookie was missing (`reason: "missing"`), did not
 * decode or belonged to another provider (`"invalid"`), or its value did not match what the
 * provider returned (`"mismatch"`). The usual causes are an expired or cross-site flow, or an
 * attack; the user should start the sign-in again.
 *
 * @example
 * ```ts
 * import { InvalidCheckError } from "latchkey"
 * // finishSignIn(...) without the state cookie rejects with InvalidCheckError { check: "state", reason: "missing" }
 * ```
 */
export class InvalidCheckError extends LatchkeyError {
  override readonly code = "ERR_INVALID_CHECK"
  readonly check: CheckName
  readonly reason: "missing" | "invalid" | "mismatch"

  constructor(check: CheckName, reason: "missing" | "invalid" | "mismatch") {
    const what = { missing: "its cookie is missing", invalid: "its cookie is invalid or was made for another provider", mismatch: "the values do not match" }[reason]
    super(`The ${check} check failed: ${what}.`)
    this.check = check
    this.reason = reason
  }
}

/**
 * The protocol fields of an OAuth error response (RFC 6749 §4.1.2.1, §5.2).
 *
 * @example
 * ```ts
 * import type { OAuthErrorFields } from "latchkey"
 * const fields: OAuthErrorFields = { error: "access_denied", error_description: "The user cancelled the sign-in." }
 * ```
 */
export interface OAuthErrorFields {
  error: string
  error_description?: string
  error_uri?: string
}

/**
 * The provider answered the authorization request with an error (`?error=access_denied`, …).
 * Carries the provider's `error`, `error_description` and `error_uri`.
 *
 * @example
 * ```ts
 * import { OAuthCallbackError } from "latchkey"
 * // a callback with ?error=access_denied rejects with OAuthCallbackError { error: "access_denied" }
 * ```
 */
export class OAuthCallbackError extends LatchkeyError {
  override readonly code = "ERR_OAUTH_CALLBACK"
  readonly error: string
  readonly error_description: string | undefined
  readonly error_uri: string | undefined

  constructor(provider: string, fields: OAuthErrorFields) {
    super(`Provider "${provider}" answered the sign-in with the error "${fields.error}".`)
    this.error = fields.error
    this.error_description = fields.error_description
    this.error_uri = fields.error_uri
  }
}

/**
 * A token endpoint refused a request: a replayed or expired code (`invalid_grant`), a wrong client
 * secret (`invalid_client`), a revoked refresh token. Carries `error`, `error_description` and the
 * HTTP `status`.
 *
 * @example
 * ```ts
 * import { OAuthTokenError } from "latchkey"
 * // exchanging a code twice rejects with OAuthTokenError { error: "invalid_grant", status: 400 }
 * ```
 */
export class OAuthTokenError extends LatchkeyError {
  override readonly code = "ERR_OAUTH_TOKEN"
  readonly error: string
  readonly error_description: string | undefined
  readonly status: number

  constructor(provider: string, fields: OAuthErrorFields & { status: number }) {
    super(`Provider "${provider}" refused the token request with "${fields.error}" (HTTP ${fields.status}).`)
    this.error = fields.error
    this.error_description = fields.error_description
    this.status = fields.status
  }
}

/**
 * A protocol check failed: a discovery document for another issuer, an RFC 9207 `iss` mismatch, an
 * id_token with a bad signature, audience, issuer, expiry or nonce, a userinfo `sub` that differs
 * from the id_token's, a response that is not what the protocol requires. `cause` summarizes the
 * underlying validation error (its name, code and message).
 *
 * @example
 * ```ts
 * import { OAuthProtocolError } from "latchkey"
 * // an id_token signed by a key outside the provider's JWKS rejects with OAuthProtocolError
 * ```
 */
export class OAuthProtocolError extends LatchkeyError {
  override readonly code = "ERR_OAUTH_PROTOCOL"
  /** The provider id. */
  readonly provider: string

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super(`Provider "${provider}": ${message}`, options)
    this.provider = provider
  }
}

/**
 * The provider cannot refresh tokens (its record says so, such as a GitHub OAuth app), or the
 * account has no refresh token.
 *
 * @example
 * ```ts
 * import { RefreshNotSupportedError } from "latchkey"
 * // refreshTokens(GitHub(...), token) rejects with RefreshNotSupportedError
 * ```
 */
export class RefreshNotSupportedError extends LatchkeyError {
  override readonly code = "ERR_REFRESH_NOT_SUPPORTED"
  readonly provider: string

  constructor(provider: string, message = `Provider "${provider}" does not support refreshing tokens.`) {
    super(message)
    this.provider = provider
  }
}

/**
 * The provider has no RFC 7009 revocation endpoint.
 *
 * @example
 * ```ts
 * import { RevocationNotSupportedError } from "latchkey"
 * // revokeToken(GitHub(...), token) rejects with RevocationNotSupportedError
 * ```
 */
export class RevocationNotSupportedError extends LatchkeyError {
  override readonly code = "ERR_REVOCATION_NOT_SUPPORTED"
  readonly provider: string

  constructor(provider: string) {
    super(`Provider "${provider}" has no token revocation endpoint.`)
    this.provider = provider
  }
}

/**
 * The account cannot be linked: it already belongs to another user, or its email matches an
 * existing user and the provider is not trusted to link by email
 * (`allowDangerousEmailAccountLinking`).
 *
 * @example
 * ```ts
 * import { OAuthAccountNotLinkedError } from "latchkey"
 * // resolveSignIn(adapter, ...) for a new Google account whose email a GitHub user already has
 * // rejects with OAuthAccountNotLinkedError
 * ```
 */
export class OAuthAccountNotLinkedError extends LatchkeyError {
  override readonly code = "ERR_OAUTH_ACCOUNT_NOT_LINKED"
  readonly provider: string

  constructor(provider: string, message: string) {
    super(`Provider "${provider}": ${message}`)
    this.provider = provider
  }
}

/** What the fold is and its cure (a binary collation), said wherever it is reported, naming no address. */
export const ADDRESS_FOLDED = "the database's collation took an email address for another user's (see docs/databases.md, Email addresses and collations)"

/**
 * A sign-in that joins a user by address (an emailed link, or an OAuth account linked by email)
 * was refused: the store answered a user whose address is a different one its collation folds
 * into the one signed in with (`ada@exämple.com` for `ada@example.com`). Joining would hand that
 * user to someone who proved another mailbox, and creating a user would collide with it in a
 * unique index under the same collation. The message names neither address.
 *
 * @example
 * ```ts
 * import { AddressCollationError } from "latchkey"
 * // resolveSignIn(adapter, ...) on MariaDB's default collation, for ada@example.com while the
 * // user ada@exämple.com exists, rejects with this error
 * const folded = (error: unknown) => error instanceof AddressCollationError
 * ```
 */
export class AddressCollationError extends LatchkeyError {
  override readonly code = "ERR_ADDRESS_COLLATION"
  readonly provider: string

  constructor(provider: string) {
    super(`Provider "${provider}": sign-in refused: ${ADDRESS_FOLDED}.`)
    this.provider = provider
  }
}

/**
 * An adapter method failed during a sign-in; `method` names it, such as `linkAccount`. `cause`
 * keeps only the adapter error's name and `code`: database clients quote the values they were given
 * in their messages (Prisma quotes the whole call), and `linkAccount` is given the account's tokens.
 *
 * @example
 * ```ts
 * import { AdapterError } from "latchkey"
 * // resolveSignIn(adapter, ...) whose adapter.linkAccount throws rejects with AdapterError { method: "linkAccount" }
 * ```
 */
export class AdapterError extends LatchkeyError {
  override readonly code = "ERR_ADAPTER"
  /** The adapter method that failed. */
  readonly method: string

  /**
   * `hint` is what the driver's code means (see lib/driver-errors.ts), such as `PostgreSQL 42P01:
   * the table "sessions" is missing…`; it is built from the code and never from the driver's values.
   */
  constructor(method: string, failure: unknown, hint?: string) {
    const { name, code } = (typeof failure === "object" && failure !== null ? failure : {}) as { name?: unknown; code?: unknown }
    super(`The adapter's ${method} failed${hint === undefined ? "" : ` (${hint})`}.`, { cause: { name, code } })
    this.method = method
  }
}

/**
 * A feature needs adapter methods the configured adapter does not have (every method of an Auth.js
 * adapter is optional), or needs an adapter and none is configured. `methods` names the missing
 * ones. `createAuth` throws it at startup for the providers it is given; `resolveSignIn` throws it
 * before writing anything.
 *
 * @example
 * ```ts
 * import { MissingAdapterMethodError } from "latchkey"
 * // createAuth({ providers: [Resend], adapter: { getUser } }) throws MissingAdapterMethodError
 * // { methods: ["createVerificationToken", "useVerificationToken", …] }
 * ```
 */
export class MissingAdapterMethodError extends LatchkeyError {
  override readonly code = "ERR_ADAPTER_METHOD"
  /** The methods the feature needs and the adapter lacks. */
  readonly methods: readonly string[]

  constructor(methods: readonly string[], feature: string, noAdapter = false) {
    super(noAdapter ? `${feature} needs an adapter, and none is configured.` : `${feature} needs the adapter methods ${methods.join(", ")}, which the adapter does not have.`)
    this.methods = methods
  }
}

/**
 * `unlinkAccount` was asked to remove the last way a user can sign in (or one it cannot show is
 * not the last), which would lock the user out.
 *
 * @example
 * ```ts
 * import { LastSignInMethodError } from "latchkey"
 * try {
 *   await unlinkAccount(userId, { provider: "github", providerAccountId })
 * } catch (error) {
 *   if (error instanceof LastSignInMethodError) console.info("link another account first")
 * }
 * ```
 */
export class LastSignInMethodError extends LatchkeyError {
  override readonly code = "ERR_LAST_SIGN_IN_METHOD"

  constructor(message = "This is the user's last way to sign in; link another one first.") {
    super(message)
  }
}

/**
 * An account change was asked for a request whose session could not be confirmed: no session, one
 * made in another browser, or one revoked (its database row is gone, though the `session.cache`
 * copy may still answer reads). Changes that last (`unlinkAccount(request, …)`, `deleteUser(request)`,
 * `revokeSessions(request)`) read the session from its row, never from the cache.
 *
 * @example
 * ```ts
 * import { SessionRequiredError } from "latchkey"
 * try {
 *   await unlinkAccount(request, { provider: "github", providerAccountId })
 * } catch (error) {
 *   if (error instanceof SessionRequiredError) console.info("sign in again to change your account")
 * }
 * ```
 */
export class SessionRequiredError extends LatchkeyError {
  override readonly code = "ERR_SESSION_REQUIRED"

  constructor(message = "This change needs a signed-in session, confirmed against its database row.") {
    super(message)
  }
}

/**
 * Why a passkey (WebAuthn) ceremony was refused. Stable; safe to log.
 *
 * @example
 * ```ts
 * import { WebAuthnError, type WebAuthnErrorReason } from "latchkey"
 * const reasonOf = (error: unknown): WebAuthnErrorReason | undefined => (error instanceof WebAuthnError ? error.reason : undefined)
 * ```
 */
export type WebAuthnErrorReason =
  | "challenge_missing"
  | "challenge_invalid"
  | "challenge_replayed"
  | "challenge_mismatch"
  | "invalid_response"
  | "verification_failed"
  | "unknown_credential"
  | "counter_rollback"
  | "credential_exists"
  | "sign_up_disabled"
  | "account_exists"
  | "session_required"

/**
 * A passkey ceremony was refused: its challenge cookie was missing, expired, already used or made
 * for another ceremony, provider or user (`challenge_*`); the browser's response was malformed or
 * did not verify against the origin, RP ID, challenge and public key; the credential is unknown,
 * already registered, or its signature counter went backwards (a cloned authenticator); or the
 * registration is not allowed (sign-up off, the email belongs to an existing user, no session).
 * `reason` says which; the message never carries the challenge or the response.
 *
 * @example
 * ```ts
 * import { WebAuthnError } from "latchkey"
 * // a second POST of the same assertion is refused with WebAuthnError { reason: "challenge_replayed" }
 * const replayed = (error: unknown) => error instanceof WebAuthnError && error.reason === "challenge_replayed"
 * ```
 */
export class WebAuthnError extends LatchkeyError {
  override readonly code = "ERR_WEBAUTHN"
  /** Which rule refused the ceremony. */
  readonly reason: WebAuthnErrorReason

  constructor(reason: WebAuthnErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.reason = reason
  }
}

/**
 * Thrown by a credentials provider's `authorize` to refuse a sign-in with a reason the client may
 * see: the handler redirects to `?error=CredentialsSignin&code=<code>`, as Auth.js does. Subclass it
 * and set `code` (letters, digits, `_` and `-`, at most 64; anything else is sent as
 * `"credentials"`). Unlike every other latchkey error, its `code` is this client-facing value, so
 * it is not part of {@link KnownLatchkeyError}. Auth.js's own `CredentialsSignin` is honoured too.
 *
 * @example
 * ```ts
 * import { CredentialsSignin } from "latchkey"
 * class InvalidLogin extends CredentialsSignin {
 *   override code = "invalid_credentials"
 * }
 * // in authorize(): throw new InvalidLogin() → /auth/signin?error=CredentialsSignin&code=invalid_credentials
 * ```
 */
export class CredentialsSignin extends LatchkeyError {
  override code: string = "credentials"

  constructor(message = "The credentials were refused.") {
    super(message)
  }
}

/**
 * `useSession` (or `useAuthClient`) ran outside a `SessionProvider`, so there is no client to read
 * the session from. Wrap the app (in Next.js, the root layout's children) in `<SessionProvider>`.
 * Exported from `latchkey/react`.
 *
 * @example
 * ```ts
 * import { MissingSessionProviderError } from "latchkey/react"
 * // useSession() in a component rendered outside <SessionProvider> throws MissingSessionProviderError
 * const isSetupError = (error: unknown) => error instanceof MissingSessionProviderError
 * ```
 */
export class MissingSessionProviderError extends LatchkeyError {
  override readonly code = "ERR_NO_SESSION_PROVIDER"

  constructor(hook: string) {
    super(`${hook}() needs a <SessionProvider> above it (from latchkey/react).`)
  }
}

/**
 * A latchkey feature needs a package the app has not installed: an optional peer dependency, kept
 * out of every install that does not use the feature. `dependency` names the package and `install`
 * the command that adds it; the message says both.
 *
 * @example
 * ```ts
 * import { MissingDependencyError } from "latchkey"
 * // a passkey request without @simplewebauthn/server installed:
 * // MissingDependencyError { dependency: "@simplewebauthn/server", install: "npm install @simplewebauthn/server" }
 * const installLine = (error: unknown) => (error instanceof MissingDependencyError ? error.install : undefined)
 * ```
 */
export class MissingDependencyError extends LatchkeyError {
  override readonly code = "ERR_MISSING_DEPENDENCY"
  /** The package to install. */
  readonly dependency: string
  /** The command that installs it. */
  readonly install: string

  constructor(feature: string, dependency: string, options?: { cause?: unknown }) {
    const install = `npm install ${dependency}`
    super(`${feature} needs ${dependency}, an optional peer dependency of latchkey that is not installed. Install it: ${install}`, options)
    this.dependency = dependency
    this.install = install
  }
}

/**
 * The session route answered `404`: nothing is mounted at the client's `basePath`. A client made
 * with the default `/auth` in an app whose handler is at next-auth's `/api/auth` would otherwise
 * keep showing a stale session, silently. Reported once per client, to its `onError` (by default
 * `console.error`). Exported from `latchkey/client` (for `latchkey/react` too).
 *
 * @example
 * ```ts
 * import { createAuthClient, SessionRouteNotFoundError } from "latchkey/client"
 * const client = createAuthClient({
 *   basePath: "/api/auth", // where the handler is mounted: the fix this error asks for
 *   onError: (error) => { if (error instanceof SessionRouteNotFoundError) reportToMonitoring(error.url) },
 * })
 * ```
 */
export class SessionRouteNotFoundError extends LatchkeyError {
  override readonly code = "ERR_SESSION_ROUTE_NOT_FOUND"

  constructor(
    /** The URL that answered 404. */
    readonly url: string,
    basePath: string,
  ) {
    super(`GET ${url} answered 404: no latchkey handler is mounted at basePath "${basePath}". Pass the handler's base path (next-auth's was "/api/auth") as basePath to SessionProvider or createAuthClient.`)
  }
}

/**
 * Why a password was refused by the password rules. Stable; safe to log.
 *
 * @example
 * ```ts
 * import { PasswordPolicyError, type PasswordPolicyReason } from "latchkey"
 * const reasonOf = (error: unknown): PasswordPolicyReason | undefined => (error instanceof PasswordPolicyError ? error.reason : undefined)
 * ```
 */
export type PasswordPolicyReason = "not_a_string" | "invalid_unicode" | "too_short" | "too_long" | "breached" | "breach_check_failed"

/**
 * A password was refused before any hashing: it is not a string, holds a lone UTF-16 surrogate
 * (`invalid_unicode`: UTF-8 would turn every one into U+FFFD, so two passwords would hash alike), is shorter than the minimum or longer
 * than the maximum (counted in Unicode code points after NFKC normalisation; a password far over
 * the maximum is refused before it is even normalised), or the app's breached-password check found
 * it (or failed: `breach_check_failed`, with the check's error summarised as `cause`). `limit` is
 * the length bound that was crossed. The message never carries the password.
 *
 * @example
 * ```ts
 * import { PasswordPolicyError } from "latchkey"
 * // hashPassword("x".repeat(1_000_000)) rejects with PasswordPolicyError { reason: "too_long", limit: 128 }
 * const tooLong = (error: unknown) => error instanceof PasswordPolicyError && error.reason === "too_long"
 * ```
 */
export class PasswordPolicyError extends LatchkeyError {
  override readonly code = "ERR_PASSWORD_POLICY"
  /** Which rule refused the password. */
  readonly reason: PasswordPolicyReason
  /** The length bound that was crossed, for `too_short` and `too_long`. */
  readonly limit: number | undefined

  constructor(reason: PasswordPolicyReason, message: string, options?: { limit?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.reason = reason
    this.limit = options?.limit
  }
}

/**
 * Why a stored password hash could not be verified. Stable; safe to log.
 *
 * @example
 * ```ts
 * import { InvalidPasswordHashError, type InvalidPasswordHashReason } from "latchkey"
 * const reasonOf = (error: unknown): InvalidPasswordHashReason | undefined => (error instanceof InvalidPasswordHashError ? error.reason : undefined)
 * ```
 */
export type InvalidPasswordHashReason = "malformed" | "unsupported_algorithm" | "out_of_range"

/**
 * A stored password hash is not one latchkey can verify: not a canonical PHC string of a scheme it
 * knows (`malformed`), of a scheme no built-in or legacy verifier claims (`unsupported_algorithm`),
 * or with parameters outside the bounds a verify may cost (`out_of_range`, such as scrypt memory
 * over `maxMemory`). Nothing is accepted silently: a damaged hash is an error, never a "wrong
 * password". The message never carries the hash.
 *
 * @example
 * ```ts
 * import { InvalidPasswordHashError } from "latchkey"
 * // verifyPassword(password, "$scrypt$ln=16,r=8$...") rejects with InvalidPasswordHashError { reason: "malformed" }
 * const damaged = (error: unknown) => error instanceof InvalidPasswordHashError && error.reason === "malformed"
 * ```
 */
export class InvalidPasswordHashError extends LatchkeyError {
  override readonly code = "ERR_INVALID_PASSWORD_HASH"
  /** What is wrong with the hash. */
  readonly reason: InvalidPasswordHashReason

  constructor(reason: InvalidPasswordHashReason, message: string) {
    super(message)
    this.reason = reason
  }
}

/**
 * The runtime cannot compute the password hash's function: a scrypt hash met a runtime without
 * `node:crypto` (a Cloudflare Worker without the `nodejs_compat` flag, Vercel Edge, a browser), or
 * the platform refused the work (Workers cap WebCrypto PBKDF2 iterations). `algorithm` names the
 * function and `fix` says what makes it available; the message says both.
 *
 * @example
 * ```ts
 * import { PasswordKdfUnavailableError } from "latchkey"
 * // verifyPassword(password, scryptHash) in a Worker without nodejs_compat:
 * // PasswordKdfUnavailableError { algorithm: "scrypt", fix: "add \"nodejs_compat\" to compatibility_flags ..." }
 * const fixOf = (error: unknown) => (error instanceof PasswordKdfUnavailableError ? error.fix : undefined)
 * ```
 */
export class PasswordKdfUnavailableError extends LatchkeyError {
  override readonly code = "ERR_PASSWORD_KDF_UNAVAILABLE"
  /** The key derivation function this runtime cannot run, such as `scrypt`. */
  readonly algorithm: string
  /** What to change so it can. */
  readonly fix: string

  constructor(algorithm: string, fix: string, options?: { cause?: unknown }) {
    super(`This runtime cannot compute ${algorithm} password hashes. To fix it: ${fix}`, options)
    this.algorithm = algorithm
    this.fix = fix
  }
}

/**
 * The session secret is too short to be a real one: under {@link MIN_SECRET_LENGTH} characters,
 * such as `AUTH_SECRET=dev`. Every session cookie is sealed with it, so a guessable secret lets
 * anyone mint sessions. `variable` names where it came from (`AUTH_SECRET`, `AUTH_SECRET_1`, …, or
 * `secret` when passed to `createAuth`).
 *
 * @example
 * ```ts
 * import { createAuth, WeakSecretError } from "latchkey"
 * try { createAuth({ providers: [], secret: "dev" }) } catch (err) {
 *   if (err instanceof WeakSecretError) console.error(err.variable) // "secret"
 * }
 * ```
 */
export class WeakSecretError extends LatchkeyError {
  override readonly code = "ERR_WEAK_SECRET"
  /** Where the short secret was set: an environment variable's name, or `secret`. */
  readonly variable: string

  constructor(variable: string, length: number) {
    super(`${variable} is ${length} characters long; a session secret needs at least ${MIN_SECRET_LENGTH}: generate one with \`npx latchkey secret\`.`)
    this.variable = variable
  }
}

/**
 * The fewest characters a session secret may have: 32, as a random 32-byte secret encoded in
 * base64 (44 characters) or hex (64) always has, and a word or a short phrase never does.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH } from "latchkey"
 * const strongEnough = (secret: string) => secret.length >= MIN_SECRET_LENGTH
 * ```
 */
export const MIN_SECRET_LENGTH = 32

/**
 * `auth()` (or `handler`) was given something that is not a Web `Request`, such as Express's or
 * Node's `req`, whose `url` is only a path. Node servers convert it with `latchkey/node`.
 *
 * @example
 * ```ts
 * import { NotAWebRequestError } from "latchkey"
 * // auth(req) in an Express route rejects with NotAWebRequestError; use auth from latchkey/node instead
 * ```
 */
export class NotAWebRequestError extends LatchkeyError {
  override readonly code = "ERR_NOT_A_WEB_REQUEST"

  constructor(method: string) {
    super(`${method}() needs a Web Request, not Node's or Express's req: pass toWebRequest(req) from latchkey/node.`)
  }
}

/**
 * The union of every error class latchkey throws; `switch (err.code)` narrows it.
 *
 * @example
 * ```ts
 * import type { KnownLatchkeyError } from "latchkey"
 * function expiredAt(error: KnownLatchkeyError): number | undefined {
 *   return error.code === "ERR_TOKEN_EXPIRED" ? error.expiredAt : undefined // narrowed to TokenExpiredError
 * }
 * ```
 */
export type KnownLatchkeyError =
  | InvalidOptionError
  | MissingSecretError
  | InvalidTokenError
  | TokenExpiredError
  | NoMatchingSecretError
  | InvalidProviderError
  | EmailSendError
  | OAuthProfileError
  | InvalidCheckError
  | OAuthCallbackError
  | OAuthTokenError
  | OAuthProtocolError
  | RefreshNotSupportedError
  | RevocationNotSupportedError
  | OAuthAccountNotLinkedError
  | AdapterError
  | MissingAdapterMethodError
  | LastSignInMethodError
  | SessionRequiredError
  | WebAuthnError
  | MissingSessionProviderError
  | MissingDependencyError
  | SessionRouteNotFoundError
  | WeakSecretError
  | NotAWebRequestError
  | PasswordPolicyError
  | InvalidPasswordHashError
  | PasswordKdfUnavailableError
  | AddressCollationError

/**
 * Every stable error code.
 *
 * @example
 * ```ts
 * import { LatchkeyError, type LatchkeyErrorCode } from "latchkey"
 * const signInAgain: readonly LatchkeyErrorCode[] = ["ERR_TOKEN_EXPIRED", "ERR_INVALID_CHECK"]
 * const mustSignInAgain = (error: unknown) => error instanceof LatchkeyError && signInAgain.some((code) => code === error.code)
 * ```
 */
export type LatchkeyErrorCode = KnownLatchkeyError["code"]
