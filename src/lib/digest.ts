/**
 * Hex for digests and random tokens, and a comparison whose time does not depend on where two
 * secrets differ. SHA-256 itself is in `jwt/digest.ts`, on the runtime's crypto backend.
 */

/** Lower-case hex of `bytes`. */
export function hex(bytes: Uint8Array): string {
  let out = ""
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0")
  return out
}

/** Compares two strings in time that depends only on their length. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
