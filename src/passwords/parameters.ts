/**
 * The hashing parameters: latchkey's defaults, the bounds an app's own choice must meet, and the
 * bounds a stored hash must meet before a verify spends anything on it. docs/passwords.md gives the
 * reasoning with the measured figures; in short:
 *
 * - scrypt N=2^16, r=8, p=2: a line of the OWASP Password Storage Cheat Sheet with the same CPU
 *   work as its first line (N=2^17, r=8, p=1) and half the memory, 64 MiB. The first line's
 *   128 MiB is all a Cloudflare Worker may use, and it is what each concurrent sign-in holds.
 * - PBKDF2-HMAC-SHA-256, 600,000 iterations: OWASP's figure for PBKDF2-SHA-256.
 * - a 16-byte random salt and a 32-byte hash.
 *
 * Lower settings are refused unless the app says `allowWeakParameters: true` (for tests).
 */
import { InvalidOptionError, InvalidPasswordHashError } from "../errors.js"
import type { ParsedHash, Pbkdf2Parameters, ScryptParameters } from "./phc.js"

/**
 * A password hashing function latchkey writes. Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { PasswordAlgorithm } from "latchkey/passwords"
 * const portable: PasswordAlgorithm = "pbkdf2-sha256" // verifies on every runtime
 * ```
 */
export type PasswordAlgorithm = "scrypt" | "pbkdf2-sha256"

/** latchkey's scrypt default: N=2^16, r=8, p=2 (64 MiB). */
export const DEFAULT_SCRYPT: ScryptParameters = { ln: 16, r: 8, p: 2 }
/** latchkey's PBKDF2-HMAC-SHA-256 default: 600,000 iterations. */
export const DEFAULT_PBKDF2: Pbkdf2Parameters = { iterations: 600_000 }
export const SALT_BYTES = 16
export const HASH_BYTES = 32
/** The most memory one scrypt verify may take unless the app raises `maxMemory`: 256 MiB. */
export const DEFAULT_MAX_MEMORY = 256 * 1024 * 1024
/** The most PBKDF2 iterations a stored hash may ask of one verify: 10 million (about 4 s of CPU). */
export const MAX_PBKDF2_ITERATIONS = 10_000_000

/**
 * What an app may set about hashing; every field has a default. Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import type { HashingOptions } from "latchkey/passwords"
 * const owaspFirstLine: HashingOptions = { scrypt: { ln: 17, r: 8, p: 1 } } // 128 MiB: Node only
 * ```
 */
export interface HashingOptions {
  /** The function new hashes use. Default: `"scrypt"` where node:crypto exists, else `"pbkdf2-sha256"`. */
  algorithm?: PasswordAlgorithm
  /** scrypt's cost, as log2 N (`ln`), block size `r` and parallelism `p`. Default `{ ln: 16, r: 8, p: 2 }`. */
  scrypt?: Partial<ScryptParameters>
  /** PBKDF2's cost. Default `{ iterations: 600_000 }`. */
  pbkdf2?: Partial<Pbkdf2Parameters>
  /** The most memory one scrypt verify may use, in bytes. Default 256 MiB. */
  maxMemory?: number
  /** Accept costs below OWASP's (for fast tests only): without it they are refused. */
  allowWeakParameters?: boolean
}

/** The hashing settings after defaults and checks. */
export interface HashingTarget {
  /** The function new hashes use, or undefined to let the runtime choose (scrypt where it can). */
  readonly algorithm: PasswordAlgorithm | undefined
  readonly scrypt: ScryptParameters
  readonly pbkdf2: Pbkdf2Parameters
  readonly maxMemory: number
}

/** The bytes node:crypto's scrypt allocates for these parameters: 128·r·(N + p + 2). */
export function scryptMemory({ ln, r, p }: ScryptParameters): number {
  return 128 * r * (2 ** ln + p + 2)
}

function integer(option: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new InvalidOptionError(option, `${option} must be an integer from ${min} to ${max}.`)
  return value
}

/**
 * Settles the hashing options. Below OWASP (scrypt N·p under 2^13·10 or r under 8, or N under 2^13;
 * PBKDF2 under 600,000) is refused unless `allowWeakParameters` is set.
 */
export function settleHashing(options: HashingOptions = {}): HashingTarget {
  const weak = options.allowWeakParameters === true
  const algorithm = options.algorithm
  if (algorithm !== undefined && algorithm !== "scrypt" && algorithm !== "pbkdf2-sha256") throw new InvalidOptionError("algorithm", 'algorithm must be "scrypt" or "pbkdf2-sha256".')
  const maxMemory = integer("maxMemory", options.maxMemory ?? DEFAULT_MAX_MEMORY, 1024 * 1024, 2 ** 32)
  const ln = integer("scrypt.ln", options.scrypt?.ln ?? DEFAULT_SCRYPT.ln, weak ? 1 : 13, 20)
  const r = integer("scrypt.r", options.scrypt?.r ?? DEFAULT_SCRYPT.r, weak ? 1 : 8, 32)
  const p = integer("scrypt.p", options.scrypt?.p ?? DEFAULT_SCRYPT.p, 1, 16)
  if (!weak && 2 ** ln * p < 2 ** 13 * 10) throw new InvalidOptionError("scrypt", "scrypt N·p is below the OWASP Password Storage Cheat Sheet's lowest line (N=2^13, p=10).")
  if (scryptMemory({ ln, r, p }) > maxMemory) throw new InvalidOptionError("scrypt", "these scrypt parameters need more memory than maxMemory allows.")
  const iterations = integer("pbkdf2.iterations", options.pbkdf2?.iterations ?? DEFAULT_PBKDF2.iterations, weak ? 1 : DEFAULT_PBKDF2.iterations, MAX_PBKDF2_ITERATIONS)
  return { algorithm, scrypt: { ln, r, p }, pbkdf2: { iterations }, maxMemory }
}

/**
 * Refuses a stored hash whose cost is more than a verify may spend: scrypt memory over `maxMemory`,
 * or PBKDF2 iterations over 10 million. A hash column an attacker could write to must not become a
 * way to hold the server's CPU or memory.
 */
export function checkStoredCost(parsed: ParsedHash, target: HashingTarget): void {
  const tooCostly =
    parsed.algorithm === "scrypt"
      ? parsed.params.ln < 1 || parsed.params.ln > 20 || parsed.params.r < 1 || parsed.params.p < 1 || parsed.params.r * parsed.params.p >= 2 ** 30 || scryptMemory(parsed.params) > target.maxMemory
      : parsed.params.iterations < 1 || parsed.params.iterations > MAX_PBKDF2_ITERATIONS
  if (tooCostly) throw new InvalidPasswordHashError("out_of_range", `The stored ${parsed.algorithm} hash asks for parameters outside what a verify may cost.`)
}

/** Whether a valid stored hash differs from what `hashPassword` would write now with `algorithm`. */
export function differsFromTarget(parsed: ParsedHash, target: HashingTarget, algorithm: PasswordAlgorithm): boolean {
  if (parsed.algorithm !== algorithm || parsed.salt.length < SALT_BYTES || parsed.hash.length !== HASH_BYTES) return true
  if (parsed.algorithm === "pbkdf2-sha256") return parsed.params.iterations !== target.pbkdf2.iterations
  const { ln, r, p } = target.scrypt
  return parsed.params.ln !== ln || parsed.params.r !== r || parsed.params.p !== p
}
