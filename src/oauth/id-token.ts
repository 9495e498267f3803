/**
 * What latchkey checks of an id_token beyond oauth4webapi's claim validation (iss, aud, exp,
 * nonce, azp): the signature, against the provider's JWKS (./jwks.ts, through oauth4webapi), with
 * asymmetric algorithms only, so an HMAC made with the client secret never passes unless the
 * provider's record declares one (then WebCrypto checks it, which oauth4webapi does not do); an
 * `iat` no further in the future than the clock tolerance; and the rule for unsigned
 * (`alg: none`) id_tokens, refused unless the client registered for them.
 */
import * as oauth from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
import { isSecureUrl } from "../lib/secure-url.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import type { HttpOptions } from "./http.js"
import { asymmetricAlgorithms, verifyWithProviderKeys } from "./jwks.js"
import { jwsHeader, signedParts } from "./jwt-parts.js"

/**
 * The clock skew allowed between latchkey and a provider, in seconds: oauth4webapi's default for
 * `exp` and `nbf` (of id_tokens and signed userinfo alike), used here for `iat` too.
 */
const CLOCK_TOLERANCE = 30

const HMAC = /^HS(256|384|512)$/

/**
 * Where an id_token came from: the token endpoint's own answer (at sign-in or refresh), or a
 * provider's custom token request, whose transport latchkey cannot vouch for.
 */
export type IdTokenSource = "token_endpoint" | "custom_request"

/** The algorithms an id_token may be signed with, for this provider. */
function allowedAlgorithms(provider: ResolvedOAuthProvider, server: oauth.AuthorizationServer): string[] {
  const configured = provider.client.id_token_signed_response_alg
  return asymmetricAlgorithms(configured ? [configured] : (server.id_token_signing_alg_values_supported ?? ["RS256"]))
}

function isUnsigned(idToken: string): boolean {
  // Not a JWS at all: oauth4webapi and the signature check refuse it with their own messages.
  return jwsHeader(idToken)?.alg === "none"
}

/**
 * Refuses an unsigned id_token unless all of OpenID Connect Core's conditions hold: the client
 * registered `id_token_signed_response_alg: "none"` (§2: only on explicit request, and only in a
 * flow whose authorization endpoint returns no id_token, which is the only flow latchkey runs),
 * and the token came straight from the token endpoint over TLS (§3.1.3.7: TLS server validation
 * then stands in for the signature). Plain http to a loopback host counts as TLS here because it
 * is the one non-TLS transport the flow already allows for every provider request (./http.ts):
 * the token never leaves the machine.
 */
function checkUnsigned(provider: ResolvedOAuthProvider, server: oauth.AuthorizationServer, source: IdTokenSource): void {
  if (provider.client.id_token_signed_response_alg !== "none") {
    throw new OAuthProtocolError(
      provider.id,
      'the id_token is unsigned (alg "none") and is refused: nothing proves the provider issued it. ' +
        'Only a client registered with id_token_signed_response_alg "none" accepts one, from its token endpoint over TLS.'
    )
  }
  if (source !== "token_endpoint") {
    throw new OAuthProtocolError(provider.id, 'the id_token is unsigned (alg "none") and did not come from the token endpoint itself, so nothing vouches for it.')
  }
  const endpoint = server.token_endpoint
  if (endpoint === undefined || !isSecureUrl(endpoint)) {
    throw new OAuthProtocolError(provider.id, 'the id_token is unsigned (alg "none") and the token endpoint is not reached over TLS, so nothing vouches for it.')
  }
}

/**
 * Checks, before oauth4webapi reads the token response, that an unsigned id_token in it is allowed
 * ({@link checkUnsigned}); oauth4webapi's own refusal would not say what was refused or why.
 */
export async function checkIdTokenAlgorithm(
  provider: ResolvedOAuthProvider,
  server: oauth.AuthorizationServer,
  response: Response,
  source: IdTokenSource
): Promise<void> {
  const body = (await response.clone().json().catch(() => undefined)) as { id_token?: unknown } | undefined
  if (typeof body?.id_token === "string" && isUnsigned(body.id_token)) checkUnsigned(provider, server, source)
}

/** Refuses an id_token issued further in the future than the clock tolerance allows. */
function checkIssuedAt(provider: ResolvedOAuthProvider, payload: oauth.IDToken): void {
  const now = Math.floor(Date.now() / 1000)
  if (typeof payload.iat === "number" && payload.iat > now + CLOCK_TOLERANCE) {
    throw new OAuthProtocolError(
      provider.id,
      `the id_token's iat lies ${payload.iat - now} s in the future, beyond the ${CLOCK_TOLERANCE} s clock tolerance: the provider's clock is wrong, or the token was minted ahead of its use.`
    )
  }
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

/** Verifies an id_token MACed with the client secret, as the provider declared (`hmac`). */
async function verifyHmac(provider: ResolvedOAuthProvider, idToken: string, alg: unknown, hmac: string): Promise<void> {
  if (!provider.clientSecret) throw new OAuthProtocolError(provider.id, `${hmac} id_tokens need the client secret.`)
  const parts = signedParts(idToken)
  let valid = false
  if (alg === hmac && parts !== undefined) {
    const hash = `SHA-${hmac.slice(2)}`
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(provider.clientSecret), { name: "HMAC", hash }, false, ["verify"])
    // WebCrypto compares the MAC in constant time.
    valid = await crypto.subtle.verify("HMAC", key, parts.signature, parts.input)
  }
  if (!valid) throw new OAuthProtocolError(provider.id, "the id_token signature does not verify with the client secret.")
}

/**
 * Verifies what oauth4webapi leaves to the client: the id_token's signature against the
 * provider's JWKS (or its declared HMAC), the unsigned-token rule, and an `iat` not in the future.
 * `response` is the token response oauth4webapi processed into `result`: it holds the id_token
 * oauth4webapi validated, whose signature is checked here.
 */
export async function verifyIdToken(
  provider: ResolvedOAuthProvider,
  server: oauth.AuthorizationServer,
  response: Response,
  result: oauth.TokenEndpointResponse,
  options: HttpOptions,
  source: IdTokenSource
): Promise<void> {
  const idToken = result.id_token ?? ""
  const claims = oauth.getValidatedIdTokenClaims(result)
  const alg = jwsHeader(idToken)?.alg
  if (claims === undefined) throw new OAuthProtocolError(provider.id, "the id_token was not validated.")
  if (alg === "none") {
    checkUnsigned(provider, server, source)
  } else {
    const hmac = declaredHmac(provider)
    if (hmac !== undefined) {
      await verifyHmac(provider, idToken, alg, hmac)
    } else {
      const jwksUri = server.jwks_uri
      if (jwksUri === undefined) throw new OAuthProtocolError(provider.id, "the provider publishes no jwks_uri to verify the id_token with.")
      const algorithms = allowedAlgorithms(provider, server)
      if (algorithms.length === 0) throw new OAuthProtocolError(provider.id, "the provider offers no asymmetric id_token signing algorithm.")
      const refused = "the id_token signature does not verify against the provider's published keys."
      await verifyWithProviderKeys({ provider: provider.id, server, jwksUri, response, alg, algorithms, refused }, options)
    }
  }
  checkIssuedAt(provider, claims)
}
