/**
 * Standard base64 without padding, the encoding the PHC string format uses for salts and hashes
 * (RFC 4648 §4 alphabet, `+` and `/`, no `=`). It is base64url with two letters swapped, so it is
 * written and read by `lib/base64url.ts` and shares its strictness: only that alphabet, no
 * impossible length, and zero bits in the unused tail of the last character, so each byte string
 * has exactly one accepted spelling and a hash that differs from what was written is refused.
 */
import { decodeBase64url, encodeBase64url, isCanonicalBase64url } from "../lib/base64url.js"

const B64 = /^[A-Za-z0-9+/]*$/

/** Encodes bytes as unpadded standard base64. */
export function encodeB64(bytes: Uint8Array): string {
  return encodeBase64url(bytes).replace(/-/g, "+").replace(/_/g, "/")
}

/** Decodes canonical unpadded standard base64, or answers undefined for anything else. */
export function decodeB64(text: string): Uint8Array | undefined {
  if (!B64.test(text)) return undefined
  const urlSafe = text.replace(/\+/g, "-").replace(/\//g, "_")
  return isCanonicalBase64url(urlSafe) ? decodeBase64url(urlSafe) : undefined
}
