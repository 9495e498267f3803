/**
 * The JWE codec on one crypto backend: `encode` and `decode` as Auth.js v5 writes and reads them,
 * plus the next-auth v4 read. Public modules bind it to the backend the export conditions chose;
 * tests bind it to both.
 */
import { InvalidTokenError, NoMatchingSecretError } from "../errors.js"
import type { JWT } from "../types.js"
import type { CryptoBackend, SealedParts } from "./backend/types.js"
import { claimsToWrite, DEFAULT_MAX_AGE, readClaims } from "./claims.js"
import { parseCompactJwe, type ParsedJwe } from "./compact.js"
import { KeyCache, type DerivedKey, type KeyScheme } from "./keys.js"
import { checkSalt, secretList, type SecretInput } from "./secrets.js"

/**
 * What `encode` takes.
 *
 * @example
 * ```ts
 * import { encode, SESSION_COOKIE_NAME, type JWTEncodeParams } from "latchkey/jwt"
 * const params: JWTEncodeParams = { token: { sub: "42" }, secret: process.env.AUTH_SECRET!, salt: SESSION_COOKIE_NAME, maxAge: 3600 }
 * const token = await encode(params)
 * ```
 */
export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to seal. `iat`, `exp` and `jti` are always set by `encode`. Default `{}`. */
  token?: Payload
  /** The secret, or a newest-first list of secrets: the first one encrypts. */
  secret: SecretInput
  /** The HKDF salt: by convention the name of the cookie the token is stored in. */
  salt: string
  /** Lifetime in seconds. Default 30 days. */
  maxAge?: number
}

/**
 * What `decode` takes.
 *
 * @example
 * ```ts
 * import { decode, SESSION_COOKIE_NAME, type JWTDecodeParams } from "latchkey/jwt"
 * const params: JWTDecodeParams = { token, secret: [newSecret, oldSecret], salt: SESSION_COOKIE_NAME }
 * const claims = await decode(params) // null when `token` is missing or empty
 * ```
 */
export interface JWTDecodeParams {
  /** The compact JWE. A missing or empty token decodes to `null`. */
  token?: string | null
  /** The secret, or a list of secrets to try (by `kid`). */
  secret: SecretInput
  /** The HKDF salt the token was written with. */
  salt: string
}

export interface Codec {
  readonly backend: CryptoBackend
  readonly keys: KeyCache
  encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string>
  decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null>
  decodeWith<Payload>(scheme: KeyScheme, params: JWTDecodeParams): Promise<Payload | null>
  /**
   * `decodeWith` without a promise where none is needed: it answers at once when every key it
   * uses is cached and the backend works inline (node:crypto), else a promise. What `decodeWith`
   * rejects with, this throws or rejects with.
   */
  decodeNow<Payload>(scheme: KeyScheme, params: JWTDecodeParams): Payload | null | Promise<Payload | null>
  /** Seals a plaintext claims string as-is; `iv` only for the differential tests. */
  seal(key: DerivedKey, plaintext: string, iv?: Uint8Array<ArrayBuffer>): Promise<string>
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Stands for the list of one secret `decodeWith` was given as a string. */
const ONE_SECRET: readonly string[] = [""]

/** Binds the codec to a crypto backend, with its own key cache. */
export function createCodec(backend: CryptoBackend): Codec {
  const keys = new KeyCache(backend)

  // The backends answer synchronously where they can (node:crypto), so a value is only awaited
  // when it is a promise: every await costs a turn of the microtask queue on each request.
  function compact(key: DerivedKey, sealed: SealedParts): string {
    return `${key.header}..${sealed.iv}.${sealed.ciphertext}.${sealed.tag}`
  }

  async function seal(key: DerivedKey, plaintext: string, iv?: Uint8Array<ArrayBuffer>): Promise<string> {
    const sealed = backend.seal(key.prepared, key.header, plaintext, iv)
    return compact(key, sealed instanceof Promise ? await sealed : sealed)
  }

  async function encode<Payload>(params: JWTEncodeParams<Payload>): Promise<string> {
    const { token = {}, secret, salt, maxAge = DEFAULT_MAX_AGE } = params
    const plaintext = claimsToWrite(token, maxAge, backend.randomUUID())
    const first = typeof secret === "string" && secret !== "" ? secret : secretList(secret)[0]
    checkSalt(salt)
    const key = keys.ready("authjs", "A256CBC-HS512", first, salt) ?? (await keys.get("authjs", "A256CBC-HS512", first, salt))
    const sealed = backend.seal(key.prepared, key.header, plaintext)
    return compact(key, sealed instanceof Promise ? await sealed : sealed)
  }

  function decodeNow<Payload>(scheme: KeyScheme, params: JWTDecodeParams): Payload | null | Promise<Payload | null> {
    const { token, secret, salt } = params
    if (token === undefined || token === null || token === "") return null
    if (typeof token !== "string") throw new InvalidTokenError("malformed", "The token must be a string.")
    // One secret is the common case: it is tried without a list made for it.
    const secrets: readonly string[] = typeof secret === "string" && secret !== "" ? ONE_SECRET : secretList(secret)
    checkSalt(salt)
    return openFrom<Payload>(scheme, parseCompactJwe(token), secret, secrets, salt, 0, undefined)
  }

  /**
   * Tries the secrets from index `from` on, in order. It stays synchronous while each key is
   * cached and the backend answers inline, and goes on in a promise at the first thing it must
   * wait for (a key's first derivation, or WebCrypto), resuming this same loop where it stopped.
   * `derived` is the key for secret `from`, when a promise just delivered it.
   */
  function openFrom<Payload>(
    scheme: KeyScheme,
    jwe: ParsedJwe,
    secret: SecretInput,
    secrets: readonly string[],
    salt: string,
    from: number,
    derived: DerivedKey | undefined
  ): Payload | Promise<Payload> {
    for (let i = from; i < secrets.length; i++) {
      const candidate = secrets === ONE_SECRET ? (secret as string) : secrets[i]!
      const key = (i === from ? derived : undefined) ?? keys.ready(scheme, jwe.enc, candidate, salt)
      if (key === undefined) {
        return keys.get(scheme, jwe.enc, candidate, salt).then((key) => openFrom<Payload>(scheme, jwe, secret, secrets, salt, i, key))
      }
      // A kid names exactly one key; a token without one is tried against every secret.
      if (jwe.kid !== undefined && jwe.kid !== key.kid) continue
      const opened = backend.open(key.prepared, jwe.aad, jwe)
      if (opened instanceof Promise) {
        return opened.then((plaintext) => {
          if (plaintext !== undefined) return claimsOf<Payload>(plaintext)
          throwIfKid(jwe)
          return openFrom<Payload>(scheme, jwe, secret, secrets, salt, i + 1, undefined)
        })
      }
      if (opened !== undefined) return claimsOf<Payload>(opened)
      throwIfKid(jwe)
    }
    throw new NoMatchingSecretError()
  }

  async function decodeWith<Payload>(scheme: KeyScheme, params: JWTDecodeParams): Promise<Payload | null> {
    const decoded = decodeNow<Payload>(scheme, params)
    return decoded instanceof Promise ? await decoded : decoded
  }

  return {
    backend,
    keys,
    encode,
    decode: (params) => decodeWith("authjs", params),
    decodeWith,
    decodeNow,
    seal,
  }
}

/** A token with a kid that its key failed to open is refused: no other secret may be tried. */
function throwIfKid(jwe: ParsedJwe): void {
  if (jwe.kid !== undefined) throw new InvalidTokenError("decryption_failed", "The token failed its integrity check.")
}

function claimsOf<Payload>(plaintext: Uint8Array): Payload {
  return readClaims<Payload>(decodeUtf8(plaintext))
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw new InvalidTokenError("invalid_claims", "The claims set is not UTF-8.")
  }
}
