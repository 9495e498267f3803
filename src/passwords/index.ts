/**
 * `latchkey/passwords`: password hashing and the password rules, the floor the email-and-password
 * flows stand on. New hashes are PHC strings: scrypt through node:crypto wherever it exists (Node,
 * Bun, Deno, Workers with `nodejs_compat`), PBKDF2-HMAC-SHA-256 through WebCrypto elsewhere. The
 * runtime's backend comes from the package `imports` entry `#password-kdf`, so no browser or edge
 * bundle carries a `node:` import. Hashes latchkey did not write verify through legacy verifiers and
 * are flagged for rehashing. An app without passwords imports none of this.
 *
 * The account routes live here too (sign-up, sign-in, verification, forgot and reset, change of
 * password and of address): {@link passwords} is the plug-in an app passes to `createAuth` with a
 * `Password()` provider. The handler only recognises a password request and calls
 * `passwords.handle` with what it lends the routes ({@link PasswordHost}).
 *
 * @module
 */
import { loadKdf } from "#password-kdf"
import { handlePasswordRequest } from "./handle.js"
import { passwordHasherOn, type PasswordHasher, type PasswordOptions, type PasswordVerification } from "./hasher.js"
import type { PasswordsPlugIn } from "./host.js"

export { haveIBeenPwned, type PwnedPasswordsOptions } from "./breached.js"
export type { PasswordHasher, PasswordOptions, PasswordVerification } from "./hasher.js"
export type { LegacyVerifier } from "./legacy.js"
export type { HashingOptions, PasswordAlgorithm } from "./parameters.js"
export type { PasswordHost, PasswordPage, PasswordPageInput, PasswordProvider, PasswordRequest, PasswordRoute, PasswordSignIn, PasswordsPlugIn } from "./host.js"
export type { PasswordErrorCode, PolicyReason } from "./answers.js"
export type { BreachedPasswordCheck, PasswordPolicy, PasswordPolicyOptions } from "./policy.js"

/**
 * Makes a password hasher with the app's settings, checked once (an invalid option throws
 * InvalidOptionError here). The functions below use one with the defaults.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import bcrypt from "bcryptjs"
 * import { createPasswordHasher } from "latchkey/passwords"
 * export const passwords = createPasswordHasher({
 *   policy: { minLength: 12 },
 *   legacy: [{ id: "bcrypt", matches: (hash) => /^\$2[aby]\$/.test(hash), verify: (password, hash) => bcrypt.compare(password, hash) }],
 * })
 * const stored = await passwords.hash("a long enough passphrase")
 * const { valid, needsRehash } = await passwords.verify("a long enough passphrase", stored)
 * ```
 */
export function createPasswordHasher(options?: PasswordOptions): PasswordHasher {
  return passwordHasherOn(loadKdf, options)
}

let defaults: PasswordHasher | undefined
const hasherFor = (options: PasswordOptions | undefined): PasswordHasher => (options === undefined ? (defaults ??= createPasswordHasher()) : createPasswordHasher(options))

/**
 * Checks a new password against the rules (length, and the breached-password check when the app set
 * one) and hashes it: a PHC string such as `$scrypt$ln=16,r=8,p=2$<salt>$<hash>`. A password that
 * breaks a rule is refused with PasswordPolicyError before any hashing.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { hashPassword } from "latchkey/passwords"
 * const stored = await hashPassword("correct horse battery staple") // "$scrypt$ln=16,r=8,p=2$…$…" on Node
 * ```
 */
export function hashPassword(password: string, options?: PasswordOptions): Promise<string> {
  return hasherFor(options).hash(password)
}

/**
 * Verifies a password against a stored hash, latchkey's or (through `options.legacy`) another
 * scheme's. `needsRehash` is true when the password matched and the hash is not what
 * {@link hashPassword} writes today: store a fresh hash then. A damaged or unknown hash throws
 * InvalidPasswordHashError; it never reads as a wrong password.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "latchkey/passwords"
 * const stored = await hashPassword("correct horse battery staple")
 * const { valid, needsRehash } = await verifyPassword("correct horse battery staple", stored) // true, false
 * ```
 */
export function verifyPassword(password: string, stored: string, options?: PasswordOptions): Promise<PasswordVerification> {
  return hasherFor(options).verify(password, stored)
}

/**
 * Spends what a verify spends (one derivation with today's parameters) and answers
 * `{ valid: false }`: call it when no user has the address, so the answer takes as long as for a
 * user who does.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { verifyDummyPassword, verifyPassword } from "latchkey/passwords"
 * const user = await findUserByEmail(email)
 * const { valid } = user ? await verifyPassword(password, user.passwordHash) : await verifyDummyPassword(password)
 * ```
 */
export function verifyDummyPassword(password: string, options?: PasswordOptions): Promise<PasswordVerification> {
  return hasherFor(options).verifyDummy(password)
}

/**
 * Whether a stored hash differs from what {@link hashPassword} writes today (another function,
 * other parameters, a legacy scheme), without a password. {@link verifyPassword} answers the same
 * as `needsRehash` when the password matches.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { needsRehash } from "latchkey/passwords"
 * await needsRehash("$scrypt$ln=15,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$OxjCnPAcHgeNvnGcUNi5oMU47gzY5wgdcxMT9ZaB6hI") // true
 * ```
 */
export function needsRehash(stored: string, options?: PasswordOptions): Promise<boolean> {
  return hasherFor(options).needsRehash(stored)
}

/**
 * Checks a new password against the rules without hashing it, and answers the NFKC-normalised form
 * that would be hashed. For a sign-up form that reports a weak password before anything else.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { PasswordPolicyError } from "latchkey"
 * import { checkPassword } from "latchkey/passwords"
 * try { await checkPassword("short") } catch (error) {
 *   if (error instanceof PasswordPolicyError) console.log(error.reason, error.limit) // "too_short" 15
 * }
 * ```
 */
export function checkPassword(password: string, options?: PasswordOptions): Promise<string> {
  return hasherFor(options).check(password)
}

/**
 * Which key derivation backend this runtime gives: `"node"` (node:crypto: scrypt and PBKDF2) or
 * `"webcrypto"` (PBKDF2 only). For diagnostics and the runtime tests.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { passwordBackend } from "latchkey/passwords"
 * console.log(await passwordBackend()) // "node" on Node and on Workers with nodejs_compat
 * ```
 */
export async function passwordBackend(): Promise<"node" | "webcrypto"> {
  return (await loadKdf()).name
}

/**
 * The password-accounts plug-in with the app's hashing settings (the rules, legacy verifiers for
 * hashes another system wrote, the algorithm): pass it to `createAuth` as `passwords`.
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import bcrypt from "bcryptjs"
 * import { createAuth } from "latchkey"
 * import { memoryAdapter } from "latchkey/adapters"
 * import Password from "latchkey/providers/password"
 * import { passwordsWith } from "latchkey/passwords"
 * const legacy = [{ id: "bcrypt", matches: (hash: string) => hash.startsWith("$2"), verify: (password: string, hash: string) => bcrypt.compare(password, hash) }]
 * export const { handler, auth } = createAuth({
 *   providers: [Password({ sendEmail: async (mail) => console.info(mail.to, mail.subject) })],
 *   adapter: memoryAdapter(),
 *   passwords: passwordsWith({ policy: { minLength: 12 }, legacy }),
 * })
 * ```
 */
export function passwordsWith(options: PasswordOptions): PasswordsPlugIn {
  const hasher = createPasswordHasher(options)
  return { hasher, handle: (host, request) => handlePasswordRequest(hasher, host, request) }
}

/**
 * The password-accounts plug-in with the default hashing settings, for `createAuth`'s `passwords`
 * option beside a `Password()` provider. Its routes live under the handler's base path:
 * `POST callback/password`, and `password/sign-up`, `verify-email`, `forgot`, `reset`, `change`,
 * `change-email` and `confirm-email`. See docs/passwords.md, "Accounts".
 *
 * Exported from `latchkey/passwords`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memoryAdapter } from "latchkey/adapters"
 * import Password from "latchkey/providers/password"
 * import { passwords } from "latchkey/passwords"
 * export const { handler, auth } = createAuth({
 *   providers: [Password({ sendEmail: async (mail) => console.info(mail.to, mail.subject) })],
 *   adapter: memoryAdapter(),
 *   passwords,
 * })
 * ```
 */
export const passwords: PasswordsPlugIn = {
  get hasher() {
    return hasherFor(undefined)
  },
  handle: (host, request) => handlePasswordRequest(hasherFor(undefined), host, request),
}
