/**
 * SHA-256 of text, on the crypto backend this runtime resolved (`#crypto-backend`): on Node,
 * node:crypto answers the digest itself, so a caller's `await` costs a microtask, not a trip
 * through the thread pool and back; elsewhere WebCrypto answers a promise. Both hash the text's
 * UTF-8 bytes, byte for byte as `crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))`
 * (test/jwt/digest.test.ts). They live here, not in `lib/`, because `lib/` sits below the backends.
 */
import { backend } from "#crypto-backend"

/** SHA-256 of `text`, base64url: latchkey's own stored and compared values. */
export function sha256(text: string): string | Promise<string> {
  return backend.sha256(text, "base64url")
}

/** SHA-256 of `text`, lower-case hex: how Auth.js writes the CSRF cookie's hash. */
export function sha256Hex(text: string): string | Promise<string> {
  return backend.sha256(text, "hex")
}
