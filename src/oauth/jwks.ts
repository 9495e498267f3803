/**
 * The provider's published keys (its JWKS), for verifying what it signs: id_tokens and signed
 * userinfo responses. oauth4webapi selects the key (by kty, kid, alg, use, key_ops and curve),
 * imports it and checks the signature; this module decides which copy of the key set it sees.
 *
 * oauth4webapi caches a key set per server-metadata object, which latchkey cannot rely on: Entra
 * ID's tenant template makes a new object per sign-in, and a discovery-cache miss makes another.
 * So each verification hands it a fresh shallow copy of the metadata (its own cache never hits)
 * together with this module's cache object, one per `fetch` and JWKS URL, which it reads while the
 * set is under 5 minutes old and rewrites whenever it downloads.
 *
 * On an unknown `kid`, oauth4webapi re-fetches only once its copy is a minute old, so a token
 * signed with a key the provider has just rotated in would fail for up to a minute. OpenID Connect
 * Core §10.1.1 asks a client to re-fetch when it meets an unfamiliar `kid`; here an unknown `kid`
 * forces one re-fetch at once, and such forced re-fetches are rate-limited per set, so tokens with
 * made-up `kid`s cannot make latchkey fetch the set on every sign-in.
 */
import * as oauth from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
import { providerFetch, requestOptions, type HttpOptions } from "./http.js"

/** At most one forced re-fetch of a key set per this many milliseconds. */
const FORCED_REFETCH_INTERVAL = 10_000
const MAX_CACHED_KEY_SETS = 100

interface KeySet {
  /** oauth4webapi's `jwksCache` input: the last downloaded set and when, in epoch seconds. */
  cache: Partial<oauth.ExportedJWKSCache>
  /** When the last forced re-fetch started, in milliseconds since the epoch. */
  lastForced: number
  /** The download in progress, which concurrent verifications share rather than each fetch the set. */
  download: Promise<Response> | undefined
}

const keySets = new WeakMap<typeof fetch, Map<string, KeySet>>()

function keySetFor(uri: string, options: HttpOptions): KeySet {
  const base = options.fetch ?? fetch
  let cache = keySets.get(base)
  if (cache === undefined) keySets.set(base, (cache = new Map()))
  let set = cache.get(uri)
  if (set === undefined) {
    set = { cache: {}, lastForced: Number.NEGATIVE_INFINITY, download: undefined }
    cache.set(uri, set)
    if (cache.size > MAX_CACHED_KEY_SETS) cache.delete(cache.keys().next().value!)
  }
  return set
}

/** Whether `error` is oauth4webapi finding no key for the token's header in the set it has. */
function noMatchingKey(error: unknown): boolean {
  if (!(error instanceof oauth.OperationProcessingError) || error.code !== oauth.KEY_SELECTION) return false
  const candidates = (error.cause as { candidates?: unknown } | undefined)?.candidates
  return Array.isArray(candidates) && candidates.length === 0
}

/** What is signed, and what a refusal says: the input of {@link verifyWithProviderKeys}. */
export interface SignedResponse {
  provider: string
  server: oauth.AuthorizationServer
  jwksUri: string
  /** The response oauth4webapi has just processed (token or userinfo), which holds the JWT. */
  response: Response
  /** The JWT's `alg`, as its header says. */
  alg: unknown
  /** The asymmetric algorithms allowed for it. */
  algorithms: readonly string[]
  /** The OAuthProtocolError message for an algorithm not allowed or a signature that does not verify. */
  refused: string
}

/**
 * Verifies the signature of the JWT oauth4webapi has just processed from `response` against the
 * provider's JWKS, fetched through the provider's bounded fetch, once its `alg` is one of
 * `algorithms`. Throws OAuthProtocolError(`refused`) otherwise, with the cause reduced.
 */
export async function verifyWithProviderKeys(signed: SignedResponse, options: HttpOptions): Promise<void> {
  const { provider, alg, algorithms, refused } = signed
  if (typeof alg !== "string" || !algorithms.includes(alg)) throw new OAuthProtocolError(provider, refused)
  try {
    await verifyFromKeySet(signed, options)
  } catch (cause) {
    throw new OAuthProtocolError(provider, refused, { cause })
  }
}

async function verifyFromKeySet({ provider, server, jwksUri, response: ref }: SignedResponse, options: HttpOptions): Promise<void> {
  const set = keySetFor(jwksUri, options)
  const fetchKeys = providerFetch(options, provider)
  let downloaded = false
  const attempt = async () => {
    let mine: Promise<Response> | undefined
    try {
      // A fresh copy each attempt: oauth4webapi's own cache is keyed by this object (see above).
      await oauth.validateApplicationLevelSignature({ ...server, jwks_uri: jwksUri }, ref, {
        ...requestOptions(jwksUri, options, provider),
        [oauth.jwksCache]: set.cache as oauth.JWKSCacheInput,
        [oauth.customFetch]: async (url, init) => {
          downloaded = true
          mine = set.download ??= fetchKeys(url, init)
          return (await mine).clone()
        },
      })
    } finally {
      // Shared until oauth4webapi has written the set into the cache, which the next reader finds.
      if (mine !== undefined && set.download === mine) set.download = undefined
    }
  }
  try {
    await attempt()
  } catch (error) {
    // oauth4webapi already downloaded the set during this call and the key is still missing: a
    // second request would find the same set. Otherwise the set may predate a rotation.
    if (!noMatchingKey(error) || downloaded) throw error
    const now = Date.now()
    if (now - set.lastForced < FORCED_REFETCH_INTERVAL) throw error
    set.lastForced = now
    delete set.cache.jwks
    delete set.cache.uat
    await attempt()
  }
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
