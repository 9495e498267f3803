/**
 * The contract of a password key derivation backend. Each runtime gets one through the package
 * `imports` entry `#password-kdf`: node:crypto (scrypt and PBKDF2 off the main thread) where the
 * `node` condition holds, WebCrypto PBKDF2 alone in browsers and edge runtimes, and on workerd
 * node:crypto when the Worker has `nodejs_compat`, else WebCrypto.
 */

/** scrypt's inputs in node:crypto's terms: N itself, and the memory ceiling the call may use. */
export interface ScryptInput {
  readonly N: number
  readonly r: number
  readonly p: number
  /** Bytes the call may allocate; node:crypto refuses more (its own default is 32 MiB). */
  readonly maxmem: number
}

/** What the hasher needs from a runtime: PBKDF2-HMAC-SHA-256 always, scrypt where it exists. */
export interface PasswordKdf {
  /** Which backend answered, for diagnostics and tests. */
  readonly name: "node" | "webcrypto"
  /** scrypt, or undefined where the runtime has no node:crypto. */
  readonly scrypt: ((password: Uint8Array, salt: Uint8Array, input: ScryptInput, length: number) => Promise<Uint8Array>) | undefined
  readonly pbkdf2Sha256: (password: Uint8Array, salt: Uint8Array, iterations: number, length: number) => Promise<Uint8Array>
}
