/**
 * Standard base64 without padding, the encoding the PHC string format uses for salts and hashes
 * (RFC 4648 §4 alphabet, `+` and `/`, no `=`). Decoding is strict: only that alphabet, no
 * impossible length, and zero bits in the unused tail of the last character, so each byte string
 * has exactly one accepted spelling and a hash that differs from what was written is refused.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

const B64 = /^[A-Za-z0-9+/]*$/

/** Encodes bytes as unpadded standard base64. */
export function encodeB64(bytes: Uint8Array): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  const left = bytes.length - i
  if (left === 1) {
    const n = bytes[i]! << 16
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!
  } else if (left === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!
  }
  return out
}

/** Decodes canonical unpadded standard base64, or answers undefined for anything else. */
export function decodeB64(text: string): Uint8Array | undefined {
  const tail = text.length % 4
  if (tail === 1 || !B64.test(text)) return undefined
  // The bits of a last partial group that carry no data must be zero (2 chars: 4 bits, 3 chars: 2).
  if (tail !== 0 && (VALUES[text.charCodeAt(text.length - 1)]! & (tail === 2 ? 0x0f : 0x03)) !== 0) return undefined
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let bits = 0
  let buffer = 0
  let at = 0
  for (let i = 0; i < text.length; i++) {
    buffer = (buffer << 6) | VALUES[text.charCodeAt(i)]!
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[at++] = (buffer >> bits) & 0xff
    }
  }
  return out
}
