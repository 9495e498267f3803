/**
 * Secret and salt arguments, checked once. A secret is a string or a newest-first list of them;
 * the first encrypts, all decrypt.
 */
import { InvalidOptionError, MissingSecretError } from "../errors.js"
import { secretsFromEnv } from "../env.js"

/**
 * One secret, or several for rotation, newest first.
 *
 * @example
 * ```ts
 * import { decode, SESSION_COOKIE_NAME, type SecretInput } from "latchkey/jwt"
 * const secret: SecretInput = [process.env.AUTH_SECRET_1!, process.env.AUTH_SECRET!] // newest first
 * const claims = await decode({ token, secret, salt: SESSION_COOKIE_NAME })
 * ```
 */
export type SecretInput = string | readonly string[]

/** The secrets as a non-empty list. Throws {@link index!MissingSecretError} when there are none. */
export function secretList(secret: SecretInput | undefined): [string, ...string[]] {
  if (secret === undefined || secret === "" || (Array.isArray(secret) && secret.length === 0)) {
    throw new MissingSecretError("A secret is required: pass `secret`, or set AUTH_SECRET.")
  }
  const list = typeof secret === "string" ? [secret] : secret
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string" && item !== "")) {
    throw new InvalidOptionError("secret", "secret must be a non-empty string or a list of non-empty strings.")
  }
  return list as [string, ...string[]]
}

/** The given secrets, else the ones from the environment. */
export function secretsOrEnv(secret: SecretInput | undefined): [string, ...string[]] {
  if (secret !== undefined) return secretList(secret)
  const fromEnv = secretsFromEnv()
  return secretList(fromEnv.length === 0 ? undefined : fromEnv)
}

/** The salt must be a string; it is part of the key derivation, so a wrong one fails every read. */
export function checkSalt(salt: unknown): string {
  if (typeof salt !== "string") throw new InvalidOptionError("salt", "salt must be a string (by default, the cookie name).")
  return salt
}
