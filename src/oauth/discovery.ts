/**
 * The authorization server's metadata for a provider: from OpenID Connect / RFC 8414 discovery
 * when the provider has an `issuer` or `wellKnown`, else assembled from its configured endpoints.
 * Discovery documents are cached per issuer and per `fetch`, for a bounded time and count; a failed
 * discovery is cached too, briefly, so a broken or slow provider is not asked again by every
 * sign-in. Issuers are bounded in length, from the configuration and from the document alike.
 */
import * as oauth from "oauth4webapi"
import { InvalidProviderError, LatchkeyError, OAuthProtocolError } from "../errors.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"
import type { ResolvedOAuthProvider } from "../providers/types.js"
import { providerFetch, requestOptions, type HttpOptions } from "./http.js"
import { translateError } from "./translate-error.js"

/**
 * How long a discovery document is reused: one hour.
 *
 * @example
 * ```ts
 * import { DISCOVERY_TTL } from "latchkey/oauth"
 * // in milliseconds: a provider's changed endpoints are picked up at most this long after the change
 * console.log(`discovery is cached for ${DISCOVERY_TTL / 60_000} minutes`) // 60
 * ```
 */
export const DISCOVERY_TTL = 60 * 60 * 1000

/**
 * How long a failed discovery is remembered: ten seconds. Until then, sign-ins with that provider
 * fail at once with the same error instead of each waiting for the failing (or timing-out)
 * request again; after it, the next sign-in tries again.
 *
 * @example
 * ```ts
 * import { DISCOVERY_FAILURE_TTL } from "latchkey/oauth"
 * // in milliseconds: a provider that was down is asked again at most this long after it failed
 * console.log(`a failed discovery is retried after ${DISCOVERY_FAILURE_TTL / 1000} s`) // 10
 * ```
 */
export const DISCOVERY_FAILURE_TTL = 10 * 1000

/** The longest issuer accepted: real ones are short URLs, and each is compared and trimmed. */
const MAX_ISSUER_LENGTH = 2048
const MAX_CACHED_DOCUMENTS = 100

interface CachedDocument {
  expires: number
  server: Promise<oauth.AuthorizationServer>
}

const caches = new WeakMap<typeof fetch, Map<string, CachedDocument>>()

function cacheFor(fetchImplementation: typeof fetch): Map<string, CachedDocument> {
  let cache = caches.get(fetchImplementation)
  if (cache === undefined) caches.set(fetchImplementation, (cache = new Map()))
  return cache
}

/** The `{tenantid}` placeholder multi-tenant Entra ID documents put in their issuer. */
export const TENANT_PLACEHOLDER = "{tenantid}"

async function fetchDocument(provider: ResolvedOAuthProvider, options: HttpOptions): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(provider.issuer!)
  const wellKnown = provider.wellKnown
  const response = wellKnown
    ? await providerFetch(options, provider.id)(wellKnown, { headers: { accept: "application/json" } })
    : await oauth.discoveryRequest(issuer, { ...requestOptions(issuer, options, provider.id), algorithm: "oidc" })
  const documentIssuer = await issuerOf(provider, response)
  if (provider.quirks.tenantIssuer) return processTenantDocument(provider, documentIssuer, response)
  if (provider.quirks.instanceIssuer) return oauth.processDiscoveryResponse(instanceIssuer(issuer, documentIssuer), response)
  return oauth.processDiscoveryResponse(issuer, response)
}

/**
 * The issuer a discovery document names, when it names one as a string. One longer than
 * {@link MAX_ISSUER_LENGTH} is refused before anything compares or trims it.
 */
async function issuerOf(provider: ResolvedOAuthProvider, response: Response): Promise<string | undefined> {
  const document = (await response.clone().json().catch(() => undefined)) as { issuer?: unknown } | undefined
  const issuer = document?.issuer
  if (typeof issuer !== "string") return undefined
  if (issuer.length > MAX_ISSUER_LENGTH) throw new OAuthProtocolError(provider.id, `the discovery document's issuer is longer than ${MAX_ISSUER_LENGTH} characters.`)
  return issuer
}

/**
 * A user-typed instance URL may differ from the server's issuer by a trailing slash either way
 * (Gitea's and authentik's issuers end with one). The document's own issuer is accepted when it
 * is the same origin and path but for trailing slashes; any other difference still fails.
 */
function instanceIssuer(configured: URL, documentIssuer: string | undefined): URL {
  if (documentIssuer === undefined) return configured
  return trimTrailingSlashes(documentIssuer) === trimTrailingSlashes(configured.href) ? new URL(documentIssuer) : configured
}

/**
 * Multi-tenant Entra ID documents name the issuer as a `{tenantid}` template. It is accepted only
 * in that exact form; each id_token's issuer is later checked against it filled with the token's
 * own `tid`.
 */
async function processTenantDocument(provider: ResolvedOAuthProvider, documentIssuer: string | undefined, response: Response): Promise<oauth.AuthorizationServer> {
  const expected = provider.issuer!
  if (documentIssuer?.includes(TENANT_PLACEHOLDER)) {
    const templated = expected.replace(/\/(common|organizations|consumers)\//, `/${TENANT_PLACEHOLDER}/`)
    if (documentIssuer !== templated) throw new OAuthProtocolError(provider.id, "the discovery document is for another issuer.")
    const document = (await response.clone().json()) as Record<string, unknown>
    const rewritten = new Response(JSON.stringify({ ...document, issuer: expected }), { status: response.status, headers: response.headers })
    return { ...(await oauth.processDiscoveryResponse(new URL(expected), rewritten)), issuer: documentIssuer }
  }
  return oauth.processDiscoveryResponse(new URL(expected), response)
}

/** The endpoints the provider's own configuration pins; they take precedence over discovery. */
function configuredEndpoints(provider: ResolvedOAuthProvider): Partial<oauth.AuthorizationServer> {
  const { revocation } = provider.capabilities
  const pinned = {
    authorization_endpoint: provider.authorization.url,
    token_endpoint: provider.token.url,
    userinfo_endpoint: provider.userinfo.url,
    jwks_uri: provider.jwks_endpoint,
    revocation_endpoint: typeof revocation === "string" ? revocation : undefined,
  }
  return Object.fromEntries(Object.entries(pinned).filter(([, value]) => value !== undefined))
}

/** Metadata for providers configured by endpoints alone; nothing here is sent to the provider. */
function configuredServer(provider: ResolvedOAuthProvider): oauth.AuthorizationServer {
  return {
    // Used only to compare an RFC 9207 `iss` the provider sends; a provider that declares none
    // and sends one anyway fails that comparison rather than being trusted blindly.
    issuer: provider.quirks.issParameter ?? `urn:latchkey:provider:${provider.id}`,
    // A provider that may stop sending `iss` (GitHub has rolled it back before) has it compared
    // when present, not required.
    ...(provider.quirks.issParameter && !provider.quirks.issParameterOptional ? { authorization_response_iss_parameter_supported: true } : {}),
    ...configuredEndpoints(provider),
  }
}

/** The provider's authorization server metadata, discovered and cached when it has an issuer. */
export async function authorizationServer(provider: ResolvedOAuthProvider, options: HttpOptions): Promise<oauth.AuthorizationServer> {
  if (provider.issuer === undefined && provider.wellKnown === undefined) return configuredServer(provider)
  if (provider.issuer === undefined) throw new OAuthProtocolError(provider.id, "a wellKnown URL needs the issuer it describes.")
  if (provider.issuer.length > MAX_ISSUER_LENGTH) throw new InvalidProviderError(provider.id, "issuer", `the issuer is longer than ${MAX_ISSUER_LENGTH} characters.`)
  const cache = cacheFor(options.fetch ?? fetch)
  const key = `${provider.issuer}|${provider.wellKnown ?? ""}|${provider.quirks.tenantIssuer ? "tenant" : ""}`
  const now = Date.now()
  let entry = cache.get(key)
  if (entry === undefined || entry.expires <= now) {
    const fresh: CachedDocument = { expires: now + DISCOVERY_TTL, server: fetchDocument(provider, options) }
    // A failure stays cached, shortened to DISCOVERY_FAILURE_TTL from when it failed; the handler
    // attached here also keeps the rejection from being reported as unhandled.
    fresh.server.catch(() => (fresh.expires = Math.min(fresh.expires, Date.now() + DISCOVERY_FAILURE_TTL)))
    entry = fresh
    cache.delete(key)
    cache.set(key, entry)
    if (cache.size > MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value!)
  }
  try {
    return { ...(await entry.server), ...configuredEndpoints(provider) }
  } catch (error) {
    const translated = translateError(provider.id, error, "discovery")
    if (translated instanceof LatchkeyError && translated.code !== "ERR_OAUTH_PROTOCOL") throw translated
    // Loaded on demand: only a failed discovery pays for saying which URL failed, and why.
    const url = provider.wellKnown ?? `${provider.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
    throw new OAuthProtocolError(provider.id, (await import("./discovery-error.js")).discoveryFailure(url, error, translated.message), { cause: translated })
  }
}

/**
 * Drops every cached discovery document; for tests and key rotation drills.
 *
 * Exported from `latchkey/oauth`.
 *
 * @example
 * ```ts
 * import { clearDiscoveryCache, startSignIn } from "latchkey/oauth"
 * await startSignIn(provider, { redirectUri, fetch: testFetch }) // discovers through testFetch and caches
 * clearDiscoveryCache(testFetch) // the cache is kept per fetch; no argument clears the global fetch's
 * ```
 */
export function clearDiscoveryCache(fetchImplementation: typeof fetch = fetch): void {
  caches.get(fetchImplementation)?.clear()
}
