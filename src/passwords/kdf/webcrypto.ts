/**
 * The WebCrypto password backend, for runtimes without node:crypto (Vercel Edge, browsers, a
 * Worker without `nodejs_compat`): PBKDF2-HMAC-SHA-256 through `crypto.subtle`, and no scrypt,
 * which WebCrypto does not define.
 */
import type { PasswordKdf } from "./types.js"

async function pbkdf2Sha256(password: Uint8Array, salt: Uint8Array, iterations: number, length: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", password as Uint8Array<ArrayBuffer>, "PBKDF2", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations }, key, length * 8)
  return new Uint8Array(bits)
}

export const webcryptoKdf: PasswordKdf = { name: "webcrypto", scrypt: undefined, pbkdf2Sha256 }

/** The backend, for `#password-kdf` in browsers and edge runtimes. */
export function loadKdf(): Promise<PasswordKdf> {
  return Promise.resolve(webcryptoKdf)
}
