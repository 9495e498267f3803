/**
 * The JWT claims set: what `encode` adds (`iat`, `exp`, `jti`) and what `decode` requires of it
 * (RFC 7519 §4.1), with the 15 seconds of clock skew Auth.js allows.
 */
import { InvalidOptionError, InvalidTokenError, TokenExpiredError } from "../errors.js"
import { AMBIGUOUS, parseStrictJson } from "./strict-json.js"

/**
 * Seconds of clock skew tolerated when checking `exp` and `nbf`.
 *
 * @example
 * ```ts
 * import { CLOCK_TOLERANCE } from "latchkey/jwt"
 * // the same 15 s of skew `decode` allows, applied to a timestamp of your own (seconds since the epoch)
 * const notExpired = (expiresAt: number) => expiresAt > Date.now() / 1000 - CLOCK_TOLERANCE
 * ```
 */
export const CLOCK_TOLERANCE = 15

/**
 * The default session lifetime: 30 days, in seconds.
 *
 * @example
 * ```ts
 * import { encode, DEFAULT_MAX_AGE, SESSION_COOKIE_NAME } from "latchkey/jwt"
 * // `encode` uses DEFAULT_MAX_AGE (2 592 000 s) when `maxAge` is not given; this token lives half as long
 * const token = await encode({ token: { sub: "42" }, secret, salt: SESSION_COOKIE_NAME, maxAge: DEFAULT_MAX_AGE / 2 })
 * ```
 */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

/** The current time in whole seconds, as JWT NumericDates are written. */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * The claims set `encode` writes: the caller's claims, then `iat`, `exp` and a fresh `jti`,
 * overriding any earlier values in place (the order `jose` and Auth.js produce).
 */
export function claimsToWrite(token: unknown, maxAge: number, jti: string): string {
  if (!isPlainObject(token)) throw new InvalidOptionError("token", "The token must be a plain object of claims.")
  if (!Number.isSafeInteger(maxAge) || maxAge <= 0) {
    throw new InvalidOptionError("maxAge", "maxAge must be a positive whole number of seconds.")
  }
  const iat = nowInSeconds()
  let json: string
  try {
    // Usually none of the three is set and nothing has toJSON: then the claims serialize on their
    // own and the three are appended, the same bytes as serializing a spread copy, without it.
    if (!Object.hasOwn(token, "iat") && !Object.hasOwn(token, "exp") && !Object.hasOwn(token, "jti") && !("toJSON" in token)) {
      const own = JSON.stringify(token)
      const added = `"iat":${iat},"exp":${iat + maxAge},"jti":${JSON.stringify(jti)}}`
      json = own === "{}" ? `{${added}` : `${own.slice(0, -1)},${added}`
    } else json = JSON.stringify({ ...token, iat, exp: iat + maxAge, jti })
  } catch (cause) {
    throw new InvalidOptionError("token", "The token's claims cannot be serialized as JSON.", { cause })
  }
  return readable(json)
}

/**
 * `json`, once sure decode will read it back. decode refuses a `__proto__` key at any depth (two
 * readers could disagree on what it means), so one here (a claim, or a parsed profile copied into
 * the token) is refused by name, rather than sealed into a session that every later read refuses,
 * signing the user out without a word. Only a text holding the key is parsed.
 */
function readable(json: string): string {
  if (json.includes('"__proto__"') && parseStrictJson(json) === AMBIGUOUS) {
    throw new InvalidOptionError("token", "No key in the claims may be named __proto__.")
  }
  return json
}

function numericDate(claims: Record<string, unknown>, name: string, required: boolean): number | undefined {
  const value = claims[name]
  if (value === undefined && !required) return undefined
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidTokenError("invalid_claims", `The "${name}" claim must be a number.`)
  }
  return value
}

/** Parses and checks the decrypted claims set. `exp` is required: a session must end. */
export function readClaims<Payload>(json: string): Payload {
  let claims: unknown
  try {
    claims = parseStrictJson(json)
  } catch {
    throw new InvalidTokenError("invalid_claims", "The claims set is not JSON.")
  }
  if (claims === AMBIGUOUS) throw new InvalidTokenError("invalid_claims", "The claims set has duplicate or __proto__ keys.")
  // JSON.parse makes only plain objects, so an object that is not an array is one.
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new InvalidTokenError("invalid_claims", "The claims set is not a JSON object.")
  }
  const record = claims as Record<string, unknown>
  const now = nowInSeconds()
  numericDate(record, "iat", false)
  const nbf = numericDate(record, "nbf", false)
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) throw new InvalidTokenError("not_yet_valid", "The token is not valid yet.")
  const exp = numericDate(record, "exp", true)!
  if (exp <= now - CLOCK_TOLERANCE) throw new TokenExpiredError(exp)
  return claims as Payload
}
