/**
 * Every error latchkey throws on purpose. Each class has a stable `code` that callers can switch
 * on; {@link KnownLatchkeyError} is their union, so `switch (err.code)` narrows. Messages never
 * carry a secret, a token or token contents. Exported from the root `latchkey`.
 *
 * @module
 */

/**
 * The base class of every latchkey error.
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
    super(message, options)
    this.name = this.constructor.name
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

/** Why a token was judged invalid. Stable; safe to log. */
export type InvalidTokenReason =
  | "malformed"
  | "too_large"
  | "unsupported_alg"
  | "unsupported_enc"
  | "unsupported_zip"
  | "unsupported_crit"
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
 * something other than JSON, or the profile callback threw (then `cause` holds its error).
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

/** The union of every error class latchkey throws; `switch (err.code)` narrows it. */
export type KnownLatchkeyError =
  | InvalidOptionError
  | MissingSecretError
  | InvalidTokenError
  | TokenExpiredError
  | NoMatchingSecretError
  | InvalidProviderError
  | EmailSendError
  | OAuthProfileError

/** Every stable error code. */
export type LatchkeyErrorCode = KnownLatchkeyError["code"]
