/**
 * The WebCrypto backend: every runtime without the `node` export condition (Vercel Edge,
 * Cloudflare Workers, Deno, browsers). Keys are imported once per derived secret and cached by the
 * caller, which is what makes WebCrypto fast enough for per-request token reads.
 */
import { decodeBase64url, encodeBase64url } from "../../lib/base64url.js"
import { hex } from "../../lib/digest.js"
import type { ContentEncryption, CryptoBackend, PreparedKey, SealedParts } from "./types.js"

interface WebKey {
  enc: ContentEncryption
  aes: CryptoKey
  mac: CryptoKey | undefined
}

const CBC_TAG_LENGTH = 32
const encoder = new TextEncoder()

function latin1(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * The protected header's bytes, kept for the header seen last: one app writes and reads under one
 * header per key, so this is nearly always a hit. Read-only to every caller (copied into the MAC
 * input, passed to WebCrypto, which copies it).
 */
let lastAad: { text: string; bytes: Uint8Array<ArrayBuffer> } | undefined

function aadBytes(text: string): Uint8Array<ArrayBuffer> {
  if (lastAad?.text !== text) lastAad = { text, bytes: latin1(text) }
  return lastAad.bytes
}

/** RFC 7518 §5.2.2.1: HMAC over AAD ‖ IV ‖ ciphertext ‖ AL, truncated to half its length. */
async function cbcTag(mac: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const input = new Uint8Array(aad.length + iv.length + ciphertext.length + 8)
  input.set(aad, 0)
  input.set(iv, aad.length)
  input.set(ciphertext, aad.length + iv.length)
  const view = new DataView(input.buffer, input.length - 8)
  const bits = aad.length * 8
  view.setUint32(0, Math.floor(bits / 0x1_0000_0000))
  view.setUint32(4, bits >>> 0)
  const full = await crypto.subtle.sign("HMAC", mac, input)
  return new Uint8Array(full, 0, CBC_TAG_LENGTH)
}

/** Compares without an early exit, so timing says nothing about where a forged tag differs. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

function asWebKey(key: PreparedKey): WebKey {
  return key as WebKey
}

function sealedParts(iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): SealedParts {
  return { iv: encodeBase64url(iv), ciphertext: encodeBase64url(ciphertext), tag: encodeBase64url(tag) }
}

export const backend: CryptoBackend = {
  name: "webcrypto",

  async prepareKey(raw, enc) {
    const subtle = crypto.subtle
    if (enc === "A256GCM") {
      const aes = await subtle.importKey("raw", raw.slice(), "AES-GCM", false, ["encrypt", "decrypt"])
      return { enc, aes, mac: undefined } satisfies WebKey
    }
    const [aes, mac] = await Promise.all([
      subtle.importKey("raw", raw.slice(32), "AES-CBC", false, ["encrypt", "decrypt"]),
      subtle.importKey("raw", raw.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
    ])
    return { enc, aes, mac } satisfies WebKey
  },

  async seal(prepared, aadText, plaintext, iv) {
    const key = asWebKey(prepared)
    const aad = aadBytes(aadText)
    const data = encoder.encode(plaintext)
    if (key.enc === "A256GCM") {
      const nonce = iv ?? crypto.getRandomValues(new Uint8Array(12))
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: aad, tagLength: 128 }, key.aes, data)
      )
      return sealedParts(nonce, sealed.subarray(0, -16), sealed.subarray(-16))
    }
    const nonce = iv ?? crypto.getRandomValues(new Uint8Array(16))
    const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: nonce }, key.aes, data))
    return sealedParts(nonce, ciphertext, await cbcTag(key.mac!, aad, nonce, ciphertext))
  },

  async open(prepared, aadText, parts) {
    const key = asWebKey(prepared)
    const aad = aadBytes(aadText)
    const iv = decodeBase64url(parts.iv)
    const ciphertext = decodeBase64url(parts.ciphertext)
    const tag = decodeBase64url(parts.tag)
    if (key.enc === "A256GCM") {
      const sealed = new Uint8Array(ciphertext.length + tag.length)
      sealed.set(ciphertext)
      sealed.set(tag, ciphertext.length)
      try {
        const params = { name: "AES-GCM", iv, additionalData: aad, tagLength: 128 }
        return new Uint8Array(await crypto.subtle.decrypt(params, key.aes, sealed))
      } catch {
        return undefined
      }
    }
    // The tag and the decryption do not depend on each other, so both run at once; the plaintext
    // is only released when the tag verifies, and a padding failure looks the same as a bad tag.
    const [expected, plaintext] = await Promise.all([
      cbcTag(key.mac!, aad, iv, ciphertext),
      crypto.subtle.decrypt({ name: "AES-CBC", iv }, key.aes, ciphertext).then(
        (buffer) => new Uint8Array(buffer),
        () => undefined
      ),
    ])
    return constantTimeEqual(expected, tag) ? plaintext : undefined
  },

  async digest(bits, ascii) {
    const hash = await crypto.subtle.digest(bits === 256 ? "SHA-256" : "SHA-512", latin1(ascii))
    return encodeBase64url(new Uint8Array(hash))
  },

  async sha256(text, encoding) {
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
    return encoding === "hex" ? hex(hash) : encodeBase64url(hash)
  },

  base64url: encodeBase64url,

  randomUUID: () => crypto.randomUUID(),
}
