/**
 * A breached-password check over the k-anonymity range protocol of Have I Been Pwned's Pwned
 * Passwords: only the first 5 hex digits of the password's SHA-1 leave the server, and the answer
 * lists every known suffix under that prefix with its count, padded with zero-count decoys (the
 * `Add-Padding` header) so its size says nothing either. latchkey never calls it by itself: an app
 * passes it as `policy.isBreached`.
 */
import { InvalidOptionError } from "../errors.js"
import type { BreachedPasswordCheck } from "./policy.js"

/**
 * Options of {@link haveIBeenPwned}. Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { PwnedPasswordsOptions } from "latchkey/passwords"
 * const mirror: PwnedPasswordsOptions = { endpoint: "https://pwned.internal.example/range/", minCount: 3, timeout: 1500 }
 * ```
 */
export interface PwnedPasswordsOptions {
  /** The range endpoint, to which the 5-digit prefix is appended. Default `https://api.pwnedpasswords.com/range/`. */
  endpoint?: string
  /** How many sightings make a password breached. Default 1. */
  minCount?: number
  /** How long to wait for the answer, in milliseconds. Default 3000. */
  timeout?: number
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch
}

const HEX = "0123456789ABCDEF"

async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)))
  let out = ""
  for (const byte of digest) out += HEX[byte >> 4]! + HEX[byte & 15]!
  return out
}

/** The count the range answer gives `suffix`, or 0 when it is not listed (or listed as padding). */
function countIn(body: string, suffix: string): number {
  for (const line of body.split("\n")) {
    const [listed, count] = line.trim().split(":")
    if (listed?.toUpperCase() === suffix) return Number.parseInt(count ?? "0", 10) || 0
  }
  return 0
}

/**
 * A breached-password check against a Pwned Passwords range endpoint. A failed request throws, and
 * the password rules report it as `breach_check_failed`; whether to let the password through then
 * is the app's call.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { createPasswordHasher, haveIBeenPwned } from "latchkey/passwords"
 * const passwords = createPasswordHasher({ policy: { isBreached: haveIBeenPwned() } })
 * await passwords.hash("correct horse battery staple") // PasswordPolicyError { reason: "breached" }
 * ```
 */
export function haveIBeenPwned(options: PwnedPasswordsOptions = {}): BreachedPasswordCheck {
  const endpoint = options.endpoint ?? "https://api.pwnedpasswords.com/range/"
  const minCount = options.minCount ?? 1
  const timeout = options.timeout ?? 3000
  if (!/^https?:\/\//.test(endpoint)) throw new InvalidOptionError("endpoint", "endpoint must be an http(s) URL.")
  if (!Number.isInteger(minCount) || minCount < 1) throw new InvalidOptionError("minCount", "minCount must be a positive integer.")
  return async (password) => {
    const digest = await sha1Hex(password)
    const doFetch = options.fetch ?? fetch
    const response = await doFetch(`${endpoint}${digest.slice(0, 5)}`, { headers: { "Add-Padding": "true" }, signal: AbortSignal.timeout(timeout) })
    if (!response.ok) throw new Error(`The Pwned Passwords range request answered HTTP ${response.status}.`)
    return countIn(await response.text(), digest.slice(5)) >= minCount
  }
}
