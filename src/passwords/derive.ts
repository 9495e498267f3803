/**
 * One derivation of a latchkey hash on the runtime's backend, and the comparison with the stored
 * bytes. The runtime's failures become typed errors that say what to change: scrypt where there is
 * no node:crypto, and PBKDF2 iteration counts a platform refuses (Cloudflare Workers cap WebCrypto
 * PBKDF2 at 100,000 iterations, below OWASP's 600,000).
 */
import { PasswordKdfUnavailableError } from "../errors.js"
import type { PasswordKdf } from "./kdf/types.js"
import { scryptMemory, type HashingTarget, type PasswordAlgorithm } from "./parameters.js"
import type { HashRecipe } from "./phc.js"

const SCRYPT_FIX =
  'verify scrypt hashes on a runtime with node:crypto: on Cloudflare Workers add "nodejs_compat" to compatibility_flags; on Vercel use the Node.js runtime for the auth routes; ' +
  'or, if every runtime of the app lacks node:crypto, hash with algorithm: "pbkdf2-sha256" from the start.'
const SCRYPT_REFUSED_FIX =
  "the runtime refused these scrypt parameters; keep their memory (128·r·N bytes) within the runtime's limit (a Cloudflare Worker has 128 MB in all; latchkey's default takes 64 MiB)."
const PBKDF2_FIX =
  "the runtime refused this PBKDF2 iteration count; on Cloudflare Workers add \"nodejs_compat\" to compatibility_flags, so hashing uses node:crypto (WebCrypto PBKDF2 there is capped at 100,000 iterations)."

const encoder = new TextEncoder()

/** Derives `length` bytes from the (already normalised) password. */
export async function derive(kdf: PasswordKdf, password: string, recipe: HashRecipe, length: number): Promise<Uint8Array> {
  const bytes = encoder.encode(password)
  if (recipe.algorithm === "scrypt") {
    if (kdf.scrypt === undefined) throw new PasswordKdfUnavailableError("scrypt", SCRYPT_FIX)
    const { ln, r, p } = recipe.params
    // node:crypto refuses more than maxmem; give it the parameters' own need and a little slack.
    const maxmem = Math.max(scryptMemory(recipe.params) + 1024 * 1024, 32 * 1024 * 1024)
    try {
      return await kdf.scrypt(bytes, recipe.salt, { N: 2 ** ln, r, p, maxmem }, length)
    } catch (error) {
      throw new PasswordKdfUnavailableError("scrypt", SCRYPT_REFUSED_FIX, { cause: error })
    }
  }
  try {
    return await kdf.pbkdf2Sha256(bytes, recipe.salt, recipe.params.iterations, length)
  } catch (error) {
    throw new PasswordKdfUnavailableError("pbkdf2-sha256", PBKDF2_FIX, { cause: error })
  }
}

/** The function new hashes use on this backend: the app's choice, else scrypt where it exists. */
export function algorithmOn(kdf: PasswordKdf, chosen: PasswordAlgorithm | undefined): PasswordAlgorithm {
  return chosen ?? (kdf.scrypt === undefined ? "pbkdf2-sha256" : "scrypt")
}

/** Today's recipe on this backend, with the given salt. */
export function currentRecipe(kdf: PasswordKdf, target: HashingTarget, salt: Uint8Array): HashRecipe {
  return algorithmOn(kdf, target.algorithm) === "scrypt" ? { algorithm: "scrypt", params: target.scrypt, salt } : { algorithm: "pbkdf2-sha256", params: target.pbkdf2, salt }
}

/**
 * Compares two byte strings in time that depends only on their length (which is public: it is in
 * the stored hash), never on where they first differ.
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}
