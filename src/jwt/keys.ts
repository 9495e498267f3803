/**
 * Key derivation and the key cache. Deriving a key (HKDF), hashing its thumbprint (the `kid`) and
 * importing it cost far more than decrypting one token, and the same few secrets and salts repeat
 * on every request, so each derived key is made once and kept in a bounded LRU. The cache key is
 * the full (scheme, enc, salt, secret) tuple: nothing from one secret can serve another.
 */
import { hkdf } from "@panva/hkdf"
import type { ContentEncryption, CryptoBackend, PreparedKey } from "./backend/types.js"

/** How a key is derived from a secret: Auth.js v5 (the default) or next-auth v4. */
export type KeyScheme = "authjs" | "next-auth-v4"

export interface DerivedKey {
  /** RFC 7638 thumbprint of the key as an `oct` JWK: the `kid` Auth.js writes and expects. */
  kid: string
  /** The base64url protected header `encode` writes with this key. */
  header: string
  prepared: PreparedKey
}

/** How many derived keys the cache keeps; the least recently used beyond this are dropped. */
export const MAX_CACHED_KEYS = 64

const KEY_LENGTH: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 }

/** The raw HKDF output for a scheme; exported for the fixed-vector tests. */
export function deriveBytes(scheme: KeyScheme, enc: ContentEncryption, secret: string, salt: string): Promise<Uint8Array> {
  if (scheme === "next-auth-v4") return hkdf("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32)
  return hkdf("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, KEY_LENGTH[enc])
}

async function deriveKey(
  backend: CryptoBackend,
  scheme: KeyScheme,
  enc: ContentEncryption,
  secret: string,
  salt: string
): Promise<DerivedKey> {
  const raw = await deriveBytes(scheme, enc, secret, salt)
  // RFC 7638 §3.2: the required members of an oct JWK, sorted, with no white space. Auth.js
  // hashes with SHA-(key length in bits), so SHA-512 for CBC-HMAC keys and SHA-256 for GCM keys.
  const jwk = `{"k":"${backend.base64url(raw)}","kty":"oct"}`
  const [kid, prepared] = await Promise.all([backend.digest(raw.length === 64 ? 512 : 256, jwk), backend.prepareKey(raw, enc)])
  raw.fill(0)
  const header = backend.base64url(new TextEncoder().encode(JSON.stringify({ alg: "dir", enc, kid })))
  return { kid, header, prepared }
}

interface Entry {
  derived: Promise<DerivedKey>
  /** Set once `derived` resolves, so a hit needs no await. */
  ready: DerivedKey | undefined
}

/**
 * A bounded, per-backend cache of derived keys. The entry used last is also held apart with its
 * four inputs, because one app reads with the same secret and salt on nearly every request: a
 * repeat is then four string comparisons, with no cache key built and no LRU reordering.
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>()
  readonly #backend: CryptoBackend
  #last: { scheme: KeyScheme; enc: ContentEncryption; secret: string; salt: string; key: DerivedKey } | undefined

  constructor(backend: CryptoBackend) {
    this.#backend = backend
  }

  /** The derived key for these inputs when it is cached and ready, without waiting; else undefined. */
  ready(scheme: KeyScheme, enc: ContentEncryption, secret: string, salt: string): DerivedKey | undefined {
    const last = this.#last
    if (last !== undefined && last.secret === secret && last.salt === salt && last.enc === enc && last.scheme === scheme) return last.key
    const entry = this.#touch(cacheKey(scheme, enc, secret, salt))
    if (entry?.ready !== undefined) this.#last = { scheme, enc, secret, salt, key: entry.ready }
    return entry?.ready
  }

  /** The derived key for these inputs, from the cache when present. */
  get(scheme: KeyScheme, enc: ContentEncryption, secret: string, salt: string): Promise<DerivedKey> {
    const id = cacheKey(scheme, enc, secret, salt)
    const cached = this.#touch(id)
    if (cached !== undefined) return cached.derived
    const entry: Entry = { derived: deriveKey(this.#backend, scheme, enc, secret, salt), ready: undefined }
    entry.derived.then(
      (key) => {
        entry.ready = key
      },
      () => {
        if (this.#entries.get(id) === entry) this.#entries.delete(id)
      }
    )
    this.#entries.set(id, entry)
    if (this.#entries.size > MAX_CACHED_KEYS) this.#entries.delete(this.#entries.keys().next().value!)
    return entry.derived
  }

  /** Looks an entry up and marks it most recently used. */
  #touch(id: string): Entry | undefined {
    const entry = this.#entries.get(id)
    if (entry !== undefined) {
      this.#entries.delete(id)
      this.#entries.set(id, entry)
    }
    return entry
  }

  /** How many keys are cached now; for tests that check the bound. */
  get size(): number {
    return this.#entries.size
  }

  /** Drops every cached key. */
  clear(): void {
    this.#entries.clear()
    this.#last = undefined
  }
}

/** Length-prefixing the salt keeps ("a|b", "c") and ("a", "b|c") apart. */
function cacheKey(scheme: KeyScheme, enc: ContentEncryption, secret: string, salt: string): string {
  return `${scheme}|${enc}|${salt.length}|${salt}|${secret}`
}
