// Shared pieces of the password tests: the two real backends, a wrapper that counts derivations
// (so "refused before hashing" and "costs one derivation" are facts a test can check without a
// clock), and cheap parameters for round trips, which must say allowWeakParameters to be accepted.
import { passwordHasherOn, type PasswordOptions } from "../../src/passwords/hasher.js"
import { nodeKdf } from "../../src/passwords/kdf/node.js"
import type { PasswordKdf } from "../../src/passwords/kdf/types.js"
import { webcryptoKdf } from "../../src/passwords/kdf/webcrypto.js"

export { nodeKdf, webcryptoKdf }

/** Low-cost settings for round trips: scrypt 2^10 (1 MiB), PBKDF2 1,000 iterations. */
export const CHEAP: PasswordOptions = { allowWeakParameters: true, scrypt: { ln: 10, r: 8, p: 1 }, pbkdf2: { iterations: 1000 } }

/** A backend that counts what it derives. */
export function counting(kdf: PasswordKdf): PasswordKdf & { calls: { scrypt: number; pbkdf2: number } } {
  const calls = { scrypt: 0, pbkdf2: 0 }
  return {
    name: kdf.name,
    calls,
    scrypt:
      kdf.scrypt &&
      ((...args) => {
        calls.scrypt++
        return kdf.scrypt!(...args)
      }),
    pbkdf2Sha256: (...args) => {
      calls.pbkdf2++
      return kdf.pbkdf2Sha256(...args)
    },
  }
}

/** A hasher over a given backend. */
export function hasherOn(kdf: PasswordKdf, options: PasswordOptions = CHEAP) {
  return passwordHasherOn(() => Promise.resolve(kdf), options)
}

/** The error a promise rejects with (failing the test if it fulfils). */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error("expected a rejection")
    },
    (error: unknown) => error
  )
}
