/**
 * id_token signature verification against the provider's published keys. oauth4webapi validates
 * the claims (iss, aud, exp, iat, nonce, azp); the signature is verified here, with `jose`, against
 * the JWKS from discovery, fetched and cached per URL (and per `fetch`). Only asymmetric
 * algorithms are accepted, so `alg: none` or an HMAC made with the client secret never passes.
 */
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTVerifyGetKey } from "jose"
import type * as oauth from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import { providerFetch, type HttpOptions } from "./http.js"

const MAX_CACHED_KEY_SETS = 100
const keySets = new WeakMap<typeof fetch, Map<string, JWTVerifyGetKey>>()

function keySetFor(uri: string, options: HttpOptions, provider: string): JWTVerifyGetKey {
  const base = options.fetch ?? fetch
  let cache = keySets.get(base)
  if (cache === undefined) keySets.set(base, (cache = new Map()))
  let keySet = cache.get(uri)
  if (keySet === undefined) {
    const fetchKeys = providerFetch(options, provider)
    keySet = createRemoteJWKSet(new URL(uri), { [customFetch]: (url, init) => fetchKeys(url, init) })
    cache.set(uri, keySet)
    if (cache.size > MAX_CACHED_KEY_SETS) cache.delete(cache.keys().next().value!)
  }
  return keySet
}

const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/
const HMAC = /^HS(256|384|512)$/

/** The algorithms an id_token may be signed with, for this provider. */
function allowedAlgorithms(provider: ResolvedOAuthProvider, server: oauth.AuthorizationServer): string[] {
  const configured = provider.client.id_token_signed_response_alg
  const offered: unknown[] = configured ? [configured] : (server.id_token_signing_alg_values_supported ?? ["RS256"])
  return offered.filter((alg): alg is string => typeof alg === "string" && ASYMMETRIC.test(alg))
}

/**
 * OpenID Connect allows id_tokens MACed with the client secret. That is honoured only when the
 * provider's own record declares it (LINE's web login does); an HMAC token from a provider that
 * declares nothing, or an asymmetric one, never gets the secret as a key.
 */
function declaredHmac(provider: ResolvedOAuthProvider): string | undefined {
  const configured: unknown = provider.client.id_token_signed_response_alg
  return typeof configured === "string" && HMAC.test(configured) ? configured : undefined
}

/** Verifies the id_token's signature against the provider's JWKS. */
export async function verifyIdTokenSignature(
  provider: ResolvedOAuthProvider,
  server: oauth.AuthorizationServer,
  idToken: string,
  options: HttpOptions
): Promise<void> {
  const hmac = declaredHmac(provider)
  if (hmac !== undefined) {
    if (!provider.clientSecret) throw new OAuthProtocolError(provider.id, `${hmac} id_tokens need the client secret.`)
    try {
      await jwtVerify(idToken, new TextEncoder().encode(provider.clientSecret), { algorithms: [hmac], clockTolerance: 30 })
      return
    } catch (cause) {
      throw new OAuthProtocolError(provider.id, "the id_token signature does not verify with the client secret.", { cause })
    }
  }
  if (server.jwks_uri === undefined) throw new OAuthProtocolError(provider.id, "the provider publishes no jwks_uri to verify the id_token with.")
  const algorithms = allowedAlgorithms(provider, server)
  if (algorithms.length === 0) throw new OAuthProtocolError(provider.id, "the provider offers no asymmetric id_token signing algorithm.")
  try {
    // Claims were already validated by oauth4webapi with its clock tolerance; allow the same here.
    await jwtVerify(idToken, keySetFor(server.jwks_uri, options, provider.id), { algorithms, clockTolerance: 30 })
  } catch (cause) {
    throw new OAuthProtocolError(provider.id, "the id_token signature does not verify against the provider's published keys.", { cause })
  }
}
