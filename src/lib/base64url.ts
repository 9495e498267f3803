/**
 * Strict, allocation-light base64url (RFC 4648 §5, no padding). Strict means canonical: only the
 * URL-safe alphabet, no padding or white space, no impossible length, and zero bits in the unused
 * tail of the last character. A token that differs from what was written, even in bits a lenient
 * decoder would ignore, is not the token that was written.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

const BASE64URL = /^[A-Za-z0-9_-]*$/

/** Whether `text` is canonical unpadded base64url. */
export function isCanonicalBase64url(text: string): boolean {
  const tail = text.length % 4
  if (tail === 1 || !BASE64URL.test(text)) return false
  return hasZeroTailBits(text)
}

/**
 * For text already known to be of the base64url alphabet, with a possible length: whether the
 * bits of its last character that carry no data are zero.
 */
export function hasZeroTailBits(text: string): boolean {
  const tail = text.length % 4
  if (tail === 0) return true
  const last = VALUES[text.charCodeAt(text.length - 1)]!
  // 2 leftover chars carry 12 bits for 8 of data, 3 carry 18 for 16: the rest must be zero.
  return (last & (tail === 2 ? 0x0f : 0x03)) === 0
}

/** How many bytes a canonical base64url string of this length decodes to. */
export function decodedLength(encodedLength: number): number {
  return Math.floor((encodedLength * 3) / 4)
}

/** Encodes bytes as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = bytes[i]! << 16
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!
  }
  return out
}

/** Decodes base64url that {@link isCanonicalBase64url} has accepted. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(decodedLength(text.length))
  let buffer = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < text.length; i++) {
    buffer = (buffer << 6) | VALUES[text.charCodeAt(i)]!
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[o++] = (buffer >> bits) & 0xff
    }
  }
  return bytes
}
