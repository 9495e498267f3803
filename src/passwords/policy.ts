/**
 * The password rules, applied before any hashing. Lengths follow NIST SP 800-63B rev. 4 (§3.1.1.2):
 * a password that is the only factor must have at least 15 characters (8 when it is one factor of
 * several), every Unicode code point counts as one character, and at least 64 must be allowed.
 * The password is NFKC-normalised first (as the same section advises), so composed and decomposed
 * forms, full-width letters and ligatures are one password. The maximum is what stops hashing DoS:
 * a string too long to be a password is refused by its length alone, before it is normalised or
 * encoded, so a 1 MB body costs no more than a short one.
 */
import { InvalidOptionError, PasswordPolicyError } from "../errors.js"

/**
 * An app's breached-password check: true when the password is known from a breach. See
 * `haveIBeenPwned` for a k-anonymity one; latchkey makes no network call unless the app passes one.
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { BreachedPasswordCheck } from "latchkey/passwords"
 * const banned = new Set(["correct horse battery staple"])
 * const isBreached: BreachedPasswordCheck = async (password) => banned.has(password)
 * ```
 */
export type BreachedPasswordCheck = (password: string) => Promise<boolean>

/**
 * What an app may set about the password rules. Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { PasswordPolicyOptions } from "latchkey/passwords"
 * // A password that is one factor of two may be as short as 8 (NIST SP 800-63B rev. 4).
 * const withSecondFactor: PasswordPolicyOptions = { minLength: 8 }
 * ```
 */
export interface PasswordPolicyOptions {
  /** The fewest characters (code points) a new password may have. Default 15; 8 is the least allowed. */
  minLength?: number
  /** The most characters a password may have. Default 128; at least 64. */
  maxLength?: number
  /** Refuses a new password known from a breach. Default: none (no network call). */
  isBreached?: BreachedPasswordCheck
}

/**
 * The password rules after defaults and checks, as `PasswordHasher.policy` shows them. Exported from
 * `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { createPasswordHasher, type PasswordPolicy } from "latchkey/passwords"
 * const { minLength, maxLength }: PasswordPolicy = createPasswordHasher().policy // 15, 128
 * ```
 */
export interface PasswordPolicy {
  readonly minLength: number
  readonly maxLength: number
  readonly isBreached: BreachedPasswordCheck | undefined
}

/** NIST SP 800-63B rev. 4's minimum for a password that is the only factor. */
export const DEFAULT_MIN_LENGTH = 15
export const DEFAULT_MAX_LENGTH = 128
/** A surrogate code unit outside a pair (in `u` mode a pair is one code point, which this does not match). */
const LONE_SURROGATE = /\p{Surrogate}/u

/** Settles the password rules, refusing a minimum under NIST's 8 or a maximum under its 64. */
export function settlePolicy(options: PasswordPolicyOptions = {}): PasswordPolicy {
  const minLength = options.minLength ?? DEFAULT_MIN_LENGTH
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH
  if (!Number.isInteger(minLength) || minLength < 8) throw new InvalidOptionError("minLength", "minLength must be an integer of at least 8 (NIST SP 800-63B).")
  if (!Number.isInteger(maxLength) || maxLength < 64 || maxLength > 4096 || maxLength < minLength) {
    throw new InvalidOptionError("maxLength", "maxLength must be an integer from 64 (NIST SP 800-63B) to 4096, and not under minLength.")
  }
  if (options.isBreached !== undefined && typeof options.isBreached !== "function") throw new InvalidOptionError("isBreached", "isBreached must be a function.")
  return { minLength, maxLength, isBreached: options.isBreached }
}

/**
 * The password as it is hashed: checked to be a string no longer than the maximum, and
 * NFKC-normalised. The first check costs nothing and bounds the work: more than 4 UTF-16 units per
 * allowed character is refused unread (a code point is at most 2 units, and composition joins at
 * most 3 code points into one, as decomposed Hangul does). NFKC can also lengthen a string (one
 * ligature becomes up to 18 letters), so the length is counted again, in code points, afterwards.
 */
export function normalizePassword(password: unknown, policy: PasswordPolicy): string {
  if (typeof password !== "string") throw new PasswordPolicyError("not_a_string", "The password is not a string.")
  if (password.length > policy.maxLength * 4) throw tooLong(policy)
  // UTF-8 encodes every lone surrogate as U+FFFD, so two passwords that differ only there would hash alike.
  if (LONE_SURROGATE.test(password)) throw new PasswordPolicyError("invalid_unicode", "The password holds a lone UTF-16 surrogate, which is not a character.")
  const normalized = password.normalize("NFKC")
  if (codePoints(normalized, policy.maxLength + 1) > policy.maxLength) throw tooLong(policy)
  return normalized
}

/** A new password, checked against every rule (the breach check last, as it may be a network call). */
export async function checkNewPassword(password: unknown, policy: PasswordPolicy): Promise<string> {
  const normalized = normalizePassword(password, policy)
  if (codePoints(normalized, policy.minLength) < policy.minLength) {
    throw new PasswordPolicyError("too_short", `The password is shorter than ${policy.minLength} characters.`, { limit: policy.minLength })
  }
  if (policy.isBreached !== undefined) {
    let breached: boolean
    try {
      breached = await policy.isBreached(normalized)
    } catch (error) {
      throw new PasswordPolicyError("breach_check_failed", "The breached-password check failed.", { cause: error })
    }
    if (breached) throw new PasswordPolicyError("breached", "The password appears in a known data breach; choose another.")
  }
  return normalized
}

/** The number of code points in `text`, counting no further than `stopAt`. */
function codePoints(text: string, stopAt: number): number {
  let count = 0
  for (let i = 0; i < text.length && count < stopAt; i++, count++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
  }
  return count
}

function tooLong(policy: PasswordPolicy): PasswordPolicyError {
  return new PasswordPolicyError("too_long", `The password is longer than ${policy.maxLength} characters.`, { limit: policy.maxLength })
}
