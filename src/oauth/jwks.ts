/**
 * The provider's published keys (its JWKS), for verifying what it signs: id_tokens and signed
 * userinfo responses. Each set is fetched with jose's `createRemoteJWKSet` and cached per URL and
 * per `fetch`. jose re-fetches a set for an unknown `kid` only once its 30 s cooldown has passed, so
 * a token signed with a key the provider has just rotated in would fail until then. OpenID Connect
 * Core §10.1.1 asks a client to re-fetch when it meets an unfamiliar `kid`; here an unknown `kid`
 * forces one re-fetch at once, and such forced re-fetches are rate-limited per set, so tokens with
 * made-up `kid`s cannot make latchkey fetch the set on every sign-in.
 */
import { createRemoteJWKSet, customFetch, errors, type JWTVerifyGetKey } from "jose"
import { providerFetch, type HttpOptions } from "./http.js"

/** At most one forced re-fetch of a key set per this many milliseconds. */
const FORCED_REFETCH_INTERVAL = 10_000
const MAX_CACHED_KEY_SETS = 100

interface KeySet {
  remote: ReturnType<typeof createRemoteJWKSet>
  /** Requests made for this set so far; tells whether jose just re-fetched by itself. */
  fetches: number
  /** When the last forced re-fetch started, in milliseconds since the epoch. */
  lastForced: number
  getKey: JWTVerifyGetKey
}

const keySets = new WeakMap<typeof fetch, Map<string, KeySet>>()

function createKeySet(uri: string, options: HttpOptions, provider: string): KeySet {
  const fetchKeys = providerFetch(options, provider)
  const set: KeySet = {
    remote: createRemoteJWKSet(new URL(uri), {
      [customFetch]: (url, init) => {
        set.fetches++
        return fetchKeys(url, init)
      },
    }),
    fetches: 0,
    lastForced: Number.NEGATIVE_INFINITY,
    getKey: async (header, token) => {
      const before = set.fetches
      try {
        return await set.remote(header, token)
      } catch (error) {
        // jose already fetched the set during this call and the key is still missing: a second
        // request would find the same set. Otherwise the set may predate a rotation.
        if (!(error instanceof errors.JWKSNoMatchingKey) || set.fetches !== before) throw error
        const now = Date.now()
        if (now - set.lastForced < FORCED_REFETCH_INTERVAL) throw error
        set.lastForced = now
        await set.remote.reload()
        return await set.remote(header, token)
      }
    },
  }
  return set
}

/** The key resolver for the JWKS at `uri`, fetched through the provider's bounded fetch. */
export function providerKeys(uri: string, options: HttpOptions, provider: string): JWTVerifyGetKey {
  const base = options.fetch ?? fetch
  let cache = keySets.get(base)
  if (cache === undefined) keySets.set(base, (cache = new Map()))
  let set = cache.get(uri)
  if (set === undefined) {
    set = createKeySet(uri, options, provider)
    cache.set(uri, set)
    if (cache.size > MAX_CACHED_KEY_SETS) cache.delete(cache.keys().next().value!)
  }
  return set.getKey
}

const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/

/**
 * The asymmetric algorithms among `offered`. A provider's signature is checked only with its
 * published public keys, so `none` and the HMAC algorithms (whose key would be the client secret)
 * are never among them.
 */
export function asymmetricAlgorithms(offered: readonly unknown[]): string[] {
  return offered.filter((alg): alg is string => typeof alg === "string" && ASYMMETRIC.test(alg))
}
