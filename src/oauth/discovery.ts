/**
 * The authorization server's metadata for a provider: from OpenID Connect / RFC 8414 discovery
 * when the provider has an `issuer` or `wellKnown`, else assembled from its configured endpoints.
 * Discovery documents are cached per issuer and per `fetch`, for a bounded time and count.
 */
import * as oauth from "oauth4webapi"
import { OAuthProtocolError } from "../errors.js"
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
  if (provider.quirks.tenantIssuer) return processTenantDocument(provider, response)
  if (provider.quirks.instanceIssuer) return oauth.processDiscoveryResponse(await instanceIssuer(issuer, response), response)
  return oauth.processDiscoveryResponse(issuer, response)
}

/**
 * A user-typed instance URL may differ from the server's issuer by a trailing slash either way
 * (Gitea's and authentik's issuers end with one). The document's own issuer is accepted when it
 * is the same origin and path but for trailing slashes; any other difference still fails.
 */
async function instanceIssuer(configured: URL, response: Response): Promise<URL> {
  const document = (await response.clone().json().catch(() => undefined)) as { issuer?: unknown } | undefined
  if (typeof document?.issuer !== "string") return configured
  const trim = (value: string) => value.replace(/\/+$/, "")
  return trim(document.issuer) === trim(configured.href) ? new URL(document.issuer) : configured
}

/**
 * Multi-tenant Entra ID documents name the issuer as a `{tenantid}` template. It is accepted only
 * in that exact form; each id_token's issuer is later checked against it filled with the token's
 * own `tid`.
 */
async function processTenantDocument(provider: ResolvedOAuthProvider, response: Response): Promise<oauth.AuthorizationServer> {
  const document = (await response.clone().json().catch(() => undefined)) as { issuer?: unknown } | undefined
  const expected = provider.issuer!
  if (typeof document?.issuer === "string" && document.issuer.includes(TENANT_PLACEHOLDER)) {
    const templated = expected.replace(/\/(common|organizations|consumers)\//, `/${TENANT_PLACEHOLDER}/`)
    if (document.issuer !== templated) throw new OAuthProtocolError(provider.id, "the discovery document is for another issuer.")
    const rewritten = new Response(JSON.stringify({ ...document, issuer: expected }), { status: response.status, headers: response.headers })
    return { ...(await oauth.processDiscoveryResponse(new URL(expected), rewritten)), issuer: document.issuer }
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
    ...(provider.quirks.issParameter ? { authorization_response_iss_parameter_supported: true } : {}),
    ...configuredEndpoints(provider),
  }
}

/** The provider's authorization server metadata, discovered and cached when it has an issuer. */
export async function authorizationServer(provider: ResolvedOAuthProvider, options: HttpOptions): Promise<oauth.AuthorizationServer> {
  if (provider.issuer === undefined && provider.wellKnown === undefined) return configuredServer(provider)
  if (provider.issuer === undefined) throw new OAuthProtocolError(provider.id, "a wellKnown URL needs the issuer it describes.")
  const cache = cacheFor(options.fetch ?? fetch)
  const key = `${provider.issuer}|${provider.wellKnown ?? ""}|${provider.quirks.tenantIssuer ? "tenant" : ""}`
  const now = Date.now()
  let entry = cache.get(key)
  if (entry === undefined || entry.expires <= now) {
    entry = { expires: now + DISCOVERY_TTL, server: fetchDocument(provider, options) }
    entry.server.catch(() => cache.delete(key))
    cache.delete(key)
    cache.set(key, entry)
    if (cache.size > MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value!)
  }
  try {
    return { ...(await entry.server), ...configuredEndpoints(provider) }
  } catch (error) {
    throw translateError(provider.id, error, "discovery")
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
