/**
 * The password hasher: the rules, the hashing settings and the legacy verifiers settled once, bound
 * to a runtime's key derivation backend. `hash` checks a new password against every rule and writes
 * a PHC string; `verify` answers `{ valid, needsRehash }` for a latchkey hash or a legacy one;
 * `verifyDummy` costs what `verify` costs and never succeeds, for the user who does not exist, so
 * sign-in and reset answer an unknown address in the same time as a known one.
 */
import { InvalidPasswordHashError } from "../errors.js"
import { algorithmOn, currentRecipe, derive, equalBytes } from "./derive.js"
import type { PasswordKdf } from "./kdf/types.js"
import { settleLegacy, verifyLegacy, type LegacyVerifier } from "./legacy.js"
import { checkStoredCost, differsFromTarget, HASH_BYTES, SALT_BYTES, settleHashing, type HashingOptions, type HashingTarget } from "./parameters.js"
import { formatHash, isLatchkeyHash, parseHash, type ParsedHash } from "./phc.js"
import { checkNewPassword, normalizePassword, settlePolicy, type PasswordPolicy, type PasswordPolicyOptions } from "./policy.js"

/**
 * Everything an app may set about passwords; every field has a default. Exported from
 * `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { PasswordOptions } from "latchkey/passwords"
 * const options: PasswordOptions = { algorithm: "pbkdf2-sha256", policy: { minLength: 12, maxLength: 256 } }
 * ```
 */
export interface PasswordOptions extends HashingOptions {
  /** The password rules: lengths and the breached-password check. */
  policy?: PasswordPolicyOptions
  /** Verifiers for hashes latchkey did not write (bcrypt, argon2, the app's own). */
  legacy?: readonly LegacyVerifier[]
}

/**
 * What a verify found: whether the password matches, and whether to store a fresh hash of it now.
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword, type PasswordVerification } from "latchkey/passwords"
 * const result: PasswordVerification = await verifyPassword(password, stored)
 * if (result.valid && result.needsRehash) stored = await hashPassword(password)
 * ```
 */
export interface PasswordVerification {
  /** The password matches the stored hash. */
  readonly valid: boolean
  /** The password matches and the hash is not what `hash` writes today (older parameters, another function, a legacy scheme): hash it again and store that. */
  readonly needsRehash: boolean
}

/**
 * A password hasher with its settings settled. Made by `createPasswordHasher`; exported from
 * `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { createPasswordHasher, type PasswordHasher } from "latchkey/passwords"
 * const passwords: PasswordHasher = createPasswordHasher({ policy: { minLength: 12 } })
 * const stored = await passwords.hash("a long enough passphrase")
 * ```
 */
export interface PasswordHasher {
  /** Checks a new password against the rules and hashes it. */
  hash(password: string): Promise<string>
  /**
   * Hashes a password that just verified, for `needsRehash`: normalised, but not held to the rules
   * for new passwords (an old password may be shorter than today's minimum, and must still move).
   */
  rehash(password: string): Promise<string>
  /** Verifies a password against a stored hash (latchkey's or a legacy one). */
  verify(password: string, stored: string): Promise<PasswordVerification>
  /** Costs what a verify costs, and never matches: for an unknown user. */
  verifyDummy(password: string): Promise<PasswordVerification>
  /** Whether a stored hash differs from what `hash` writes today. */
  needsRehash(stored: string): Promise<boolean>
  /** Checks a new password against the rules and answers its normalised form, without hashing it. */
  check(password: string): Promise<string>
  /** The settled rules, for pages that show them (such as the minimum length). */
  readonly policy: PasswordPolicy
}

const NOT_VALID: PasswordVerification = Object.freeze({ valid: false, needsRehash: false })

function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length))
}

/** A hash in today's settings for this backend, with a fresh salt. */
async function hashWith(kdf: PasswordKdf, target: HashingTarget, normalized: string): Promise<string> {
  const recipe = currentRecipe(kdf, target, randomBytes(SALT_BYTES))
  return formatHash({ ...recipe, hash: await derive(kdf, normalized, recipe, HASH_BYTES) })
}

/** A stored latchkey hash, parsed and within what a verify may cost. */
function readStored(stored: unknown, target: HashingTarget): ParsedHash {
  if (typeof stored !== "string") throw new InvalidPasswordHashError("malformed", "The stored password hash is not a string.")
  const parsed = parseHash(stored)
  checkStoredCost(parsed, target)
  return parsed
}

/**
 * Makes a password hasher over a backend loader (`#password-kdf`'s, or one a test passes).
 * Invalid options throw InvalidOptionError here, not at the first sign-in.
 */
export function passwordHasherOn(loadKdf: () => Promise<PasswordKdf>, options: PasswordOptions = {}): PasswordHasher {
  const target = settleHashing(options)
  const policy = settlePolicy(options.policy)
  const legacy = settleLegacy(options.legacy)

  async function verifyParsed(normalized: string, parsed: ParsedHash): Promise<PasswordVerification> {
    const kdf = await loadKdf()
    const derived = await derive(kdf, normalized, parsed, parsed.hash.length)
    if (!equalBytes(derived, parsed.hash)) return NOT_VALID
    return { valid: true, needsRehash: differsFromTarget(parsed, target, algorithmOn(kdf, target.algorithm)) }
  }

  return {
    policy,
    check: (password) => checkNewPassword(password, policy),
    async hash(password) {
      const normalized = await checkNewPassword(password, policy)
      return hashWith(await loadKdf(), target, normalized)
    },
    async rehash(password) {
      return hashWith(await loadKdf(), target, normalizePassword(password, policy))
    },
    async verify(password, stored) {
      const normalized = normalizePassword(password, policy)
      if (typeof stored === "string" && !isLatchkeyHash(stored)) {
        const valid = await verifyLegacy(legacy, password, stored)
        return valid ? { valid, needsRehash: true } : NOT_VALID
      }
      return verifyParsed(normalized, readStored(stored, target))
    },
    async verifyDummy(password) {
      const normalized = normalizePassword(password, policy)
      const kdf = await loadKdf()
      // Random bytes in today's format: one derivation, as for a real user, and no password can match.
      await verifyParsed(normalized, { ...currentRecipe(kdf, target, randomBytes(SALT_BYTES)), hash: randomBytes(HASH_BYTES) })
      return NOT_VALID
    },
    async needsRehash(stored) {
      if (typeof stored === "string" && !isLatchkeyHash(stored)) return true
      const parsed = readStored(stored, target)
      return differsFromTarget(parsed, target, algorithmOn(await loadKdf(), target.algorithm))
    },
  }
}
