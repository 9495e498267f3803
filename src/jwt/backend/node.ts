/**
 * The node:crypto backend, chosen by the `node` export condition. On Node, a WebCrypto call costs
 * a promise and a thread-pool hop; the same AES and HMAC work through node:crypto runs inline and
 * is an order of magnitude faster, which matters because a session token is read on every request.
 * It must agree byte for byte with the WebCrypto backend and with `jose` (see the differential
 * tests).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
} from "node:crypto"
import type { ContentEncryption, CryptoBackend, PreparedKey, SealedParts } from "./types.js"

interface NodeKey {
  enc: ContentEncryption
  /** AES key: the second half of a CBC-HMAC key, or the whole GCM key. */
  aes: KeyObject
  /** HMAC-SHA-512 key, the first half of a CBC-HMAC key (RFC 7518 §5.2.2.1). */
  mac: KeyObject | undefined
}

const CBC_TAG_LENGTH = 32
const GCM_TAG_LENGTH = 16

/** RFC 7518 §5.2.2.1: HMAC over AAD ‖ IV ‖ ciphertext ‖ AL, truncated to half its length. */
function cbcTag(mac: KeyObject, aad: Buffer, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  const al = Buffer.alloc(8)
  const bits = aad.length * 8
  al.writeUInt32BE(Math.floor(bits / 0x1_0000_0000), 0)
  al.writeUInt32BE(bits >>> 0, 4)
  return createHmac("sha512", mac).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, CBC_TAG_LENGTH)
}

function asNodeKey(key: PreparedKey): NodeKey {
  return key as NodeKey
}

export const backend: CryptoBackend = {
  name: "node",

  async prepareKey(raw, enc) {
    if (enc === "A256GCM") return { enc, aes: createSecretKey(raw), mac: undefined } satisfies NodeKey
    return { enc, aes: createSecretKey(raw.subarray(32)), mac: createSecretKey(raw.subarray(0, 32)) } satisfies NodeKey
  },

  async seal(prepared, aadText, plaintext, iv) {
    const key = asNodeKey(prepared)
    const aad = Buffer.from(aadText, "latin1")
    if (key.enc === "A256GCM") {
      const nonce = iv ?? randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", key.aes, nonce, { authTagLength: GCM_TAG_LENGTH }).setAAD(aad)
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
      return encodeParts(nonce, ciphertext, cipher.getAuthTag())
    }
    const nonce = iv ?? randomBytes(16)
    const cipher = createCipheriv("aes-256-cbc", key.aes, nonce)
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
    return encodeParts(nonce, ciphertext, cbcTag(key.mac!, aad, nonce, ciphertext))
  },

  async open(prepared, aadText, parts) {
    const key = asNodeKey(prepared)
    const aad = Buffer.from(aadText, "latin1")
    const iv = Buffer.from(parts.iv, "base64url")
    const ciphertext = Buffer.from(parts.ciphertext, "base64url")
    const tag = Buffer.from(parts.tag, "base64url")
    if (key.enc === "A256GCM") {
      try {
        const decipher = createDecipheriv("aes-256-gcm", key.aes, iv, { authTagLength: GCM_TAG_LENGTH })
        decipher.setAAD(aad).setAuthTag(tag)
        return Buffer.concat([decipher.update(ciphertext), decipher.final()])
      } catch {
        return undefined
      }
    }
    if (!timingSafeEqual(cbcTag(key.mac!, aad, iv, ciphertext), tag)) return undefined
    try {
      const decipher = createDecipheriv("aes-256-cbc", key.aes, iv)
      return Buffer.concat([decipher.update(ciphertext), decipher.final()])
    } catch {
      // Only reachable with a valid tag, i.e. a token made with the key but with broken padding.
      return undefined
    }
  },

  async digest(bits, ascii) {
    return createHash(bits === 256 ? "sha256" : "sha512").update(ascii, "latin1").digest("base64url")
  },

  base64url: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url"),

  randomUUID: () => randomUUID(),
}

function encodeParts(iv: Uint8Array, ciphertext: Buffer, tag: Buffer): SealedParts {
  return {
    iv: Buffer.from(iv.buffer, iv.byteOffset, iv.byteLength).toString("base64url"),
    ciphertext: ciphertext.toString("base64url"),
    tag: tag.toString("base64url"),
  }
}
