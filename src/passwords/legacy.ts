/**
 * Legacy verifiers: how hashes latchkey did not write (an Auth.js credentials app's bcrypt, argon2,
 * the app's own) still verify, so users move over without a reset. Each verifier claims the stored
 * strings it reads; the first that claims one verifies it, and a success is flagged for rehashing,
 * so the hash is replaced by latchkey's own at that sign-in. docs/passwords.md has the recipes for
 * bcryptjs and @node-rs/argon2.
 */
import { InvalidOptionError, InvalidPasswordHashError } from "../errors.js"

/**
 * A verifier for hashes latchkey did not write. It is given the password exactly as the user typed
 * it (not NFKC-normalised: the old hash was made from the raw string). Exported from
 * `latchkey/passwords`; docs/passwords.md has the bcryptjs and @node-rs/argon2 recipes.
 *
 * @example
 * ```ts
 * import bcrypt from "bcryptjs"
 * import type { LegacyVerifier } from "latchkey/passwords"
 * const bcryptHashes: LegacyVerifier = {
 *   id: "bcrypt",
 *   matches: (stored) => /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/.test(stored),
 *   verify: (password, stored) => bcrypt.compare(password, stored),
 * }
 * ```
 */
export interface LegacyVerifier {
  /** A short name for messages, such as `"bcrypt"`. */
  readonly id: string
  /** Whether this verifier reads this stored string (a prefix test, usually). */
  matches(stored: string): boolean
  /** Whether `password` is the one `stored` was made from. */
  verify(password: string, stored: string): boolean | Promise<boolean>
}

/** Checks the shape of each legacy verifier once, when the hasher is made. */
export function settleLegacy(verifiers: readonly LegacyVerifier[] = []): readonly LegacyVerifier[] {
  for (const [index, verifier] of verifiers.entries()) {
    if (typeof verifier?.id !== "string" || typeof verifier.matches !== "function" || typeof verifier.verify !== "function") {
      throw new InvalidOptionError(`legacy[${index}]`, "a legacy verifier needs an id, matches(stored) and verify(password, stored).")
    }
  }
  return [...verifiers]
}

/**
 * Verifies with the first verifier that claims the stored string. No claim, a verifier that throws,
 * or an answer that is not a boolean is an InvalidPasswordHashError: never a silent "valid".
 */
export async function verifyLegacy(verifiers: readonly LegacyVerifier[], password: string, stored: string): Promise<boolean> {
  const verifier = verifiers.find((candidate) => candidate.matches(stored))
  if (verifier === undefined) {
    throw new InvalidPasswordHashError("unsupported_algorithm", "No built-in or legacy verifier reads the stored password hash; add a legacy verifier for its scheme.")
  }
  let answer: unknown
  try {
    answer = await verifier.verify(password, stored)
  } catch {
    throw new InvalidPasswordHashError("malformed", `The legacy verifier "${verifier.id}" could not read the stored password hash.`)
  }
  if (typeof answer !== "boolean") throw new InvalidPasswordHashError("malformed", `The legacy verifier "${verifier.id}" answered something other than true or false.`)
  return answer
}
