/**
 * The contract between the JWE code and a crypto backend. A backend does only the symmetric work
 * of one content encryption algorithm on prepared keys; parsing, key derivation, claims and every
 * check live once in the shared code. Two backends exist: `node.ts` (node:crypto, chosen by the
 * `node` export condition) and `webcrypto.ts` (everything else).
 */

/** The JWE content encryption algorithms latchkey reads. It writes only `A256CBC-HS512`. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

/** A backend-specific prepared key. Opaque to the shared code. */
export type PreparedKey = object

/** The three JWE segments a backend produces or consumes, base64url-encoded. */
export interface SealedParts {
  iv: string
  ciphertext: string
  tag: string
}

/**
 * `seal` and `open` answer a value or a promise: node:crypto works synchronously, and awaiting
 * only real promises spares the hot path a microtask turn per call.
 */
export interface CryptoBackend {
  /** Which backend this is, so tests and runtime checks can tell them apart. */
  readonly name: "node" | "webcrypto"
  /** Turns derived key bytes into whatever makes repeated use fastest. */
  prepareKey(raw: Uint8Array, enc: ContentEncryption): Promise<PreparedKey>
  /**
   * Encrypts `plaintext` with `aad` as the additional authenticated data. `iv` is only passed by
   * the differential tests; callers leave it out and get a fresh random one.
   */
  seal(key: PreparedKey, aad: string, plaintext: string, iv?: Uint8Array<ArrayBuffer>): SealedParts | Promise<SealedParts>
  /**
   * Authenticates and decrypts. Answers `undefined` when the tag does not verify. The segments are
   * already checked to be canonical base64url of the right lengths.
   */
  open(key: PreparedKey, aad: string, parts: SealedParts): Uint8Array | undefined | Promise<Uint8Array | undefined>
  /** SHA-256 or SHA-512 of an ASCII string, as base64url. */
  digest(bits: 256 | 512, ascii: string): Promise<string>
  /**
   * SHA-256 of `text`'s UTF-8 bytes (a lone surrogate as U+FFFD, as `TextEncoder` writes it), as
   * base64url or lower-case hex. node:crypto answers the string itself: no promise and no
   * thread-pool hop, on paths (the CSRF check, the rate limiter's keys) that run on every sign-in.
   */
  sha256(text: string, encoding: "base64url" | "hex"): string | Promise<string>
  /** base64url without padding. */
  base64url(bytes: Uint8Array): string
  /** A random RFC 9562 version 4 UUID. */
  randomUUID(): string
}
