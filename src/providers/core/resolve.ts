/**
 * `resolveProviders`: the one place where what the user wrote becomes the configuration that runs.
 * It calls uncalled factories, merges options over defaults, fills gaps from the environment,
 * applies named quirks, settles the checks, validates everything up front, and adds the sign-in
 * and callback URLs. Anything that cannot work fails here, with the provider and field named.
 */
import { InvalidProviderError } from "../../errors.js"
import { processEnv, readEnv, type EnvRecord } from "../../env.js"
import { didYouMean } from "../../lib/did-you-mean.js"
import { isSecureUrl } from "../../lib/secure-url.js"
import { trimTrailingSlashes } from "../../lib/trim-slashes.js"
import type {
  AppProvider,
  AppProviders,
  OAuthConfig,
  OIDCCheck,
  Provider,
  ProviderConfig,
  ResolvedOAuthProvider,
  ResolvedProvider,
  TokenEndpointHandler,
  UserinfoEndpointHandler,
} from "../types.js"
import { defaultAccount, defaultProfile } from "./defaults.js"
import { mergeEndpoint } from "./endpoints.js"
import { checkFields } from "./fields.js"
import { mergeDeep } from "./merge.js"

/**
 * What {@link resolveProviders} needs to know about the app.
 *
 * @example
 * ```ts
 * import { resolveProviders, GitHub, type ResolveProvidersOptions } from "latchkey/providers"
 * const options: ResolveProvidersOptions = { baseUrl: "https://app.example.com", basePath: "/api/auth", env: { AUTH_GITHUB_ID: "Iv1.x", AUTH_GITHUB_SECRET: "…" } }
 * const [github] = resolveProviders([GitHub], options) // github.callbackUrl: "https://app.example.com/api/auth/callback/github"
 * ```
 */
export interface ResolveProvidersOptions {
  /** The app's public origin, such as `https://app.example.com`. */
  baseUrl: string
  /** Where the handler is mounted. Default `/auth`. */
  basePath?: string
  /** Where `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` and `_KEY` are read. Default: the process environment. */
  env?: EnvRecord
  /** The app-wide redirect proxy; like a provider's own, it adds the `state` check. */
  redirectProxyUrl?: string
}

const KNOWN_CHECKS: readonly OIDCCheck[] = ["none", "state", "pkce", "nonce"]
const ENDPOINTS = ["authorization", "token", "userinfo"] as const

/**
 * The scope a configuration that names none asks for, as Auth.js does: every OpenID Connect
 * provider, and an OAuth 2.0 provider written by hand with its own authorization endpoint. A
 * built-in record states its scope, or deliberately none.
 */
const DEFAULT_SCOPE = "openid profile email"

/** The discovery suffixes an issuer can be read back from, when only `wellKnown` is given. */
const WELL_KNOWN_SUFFIXES = ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]

/** Every provider type, for the message that refuses another. */
const PROVIDER_TYPES = ["oidc", "oauth", "email", "credentials", "webauthn", "password"]

/** In a record's `wellKnown`, the issuer, for a provider whose discovery is not at the standard path (Frontegg). */
const ISSUER = "{issuer}"

/**
 * `AUTH_<ID>_<SUFFIX>`, with the id upper-cased and `-` turned into `_`.
 *
 * @example
 * ```ts
 * import { envName } from "latchkey/providers"
 * envName("azure-ad-b2c", "SECRET") // "AUTH_AZURE_AD_B2C_SECRET"
 * ```
 */
export function envName(id: string, suffix: "ID" | "SECRET" | "ISSUER" | "KEY"): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_${suffix}`
}

/** Throws unless `url` is an absolute https URL (or http on a loopback host). */
function checkUrl(id: string, field: string, url: string | undefined): void {
  if (url === undefined) return
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new InvalidProviderError(id, field, `${field} is not an absolute URL.`)
  }
  if (!isSecureUrl(parsed)) throw new InvalidProviderError(id, field, `${field} must use https (plain http is allowed only on loopback hosts).`)
}

/**
 * The app's own URL may be plain http anywhere (a LAN address, a docker-compose host name, a proxy
 * that terminates TLS): the https rule protects what latchkey sends to providers, not where the
 * browser comes back to. Its cookies then simply lose Secure and their prefixes.
 */
function checkAppUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") throw new InvalidProviderError("app", "baseUrl", "the app's baseUrl must be an absolute http(s) URL.")
}

/** The provider's configuration with the user's options merged over its defaults. */
function mergeOptions(config: ProviderConfig): ProviderConfig {
  const { options, ...defaults } = config as ProviderConfig & { options?: Record<string, unknown> }
  if (options === undefined) return config
  const merged = mergeDeep(defaults as Record<string, unknown>, { ...options, authorization: undefined, token: undefined, userinfo: undefined })
  for (const endpoint of ENDPOINTS) {
    if (endpoint in defaults || endpoint in options) merged[endpoint] = mergeEndpoint(defaults[endpoint as keyof typeof defaults], options[endpoint])
  }
  return merged as unknown as ProviderConfig
}

function settleChecks(config: OAuthConfig, appRedirectProxy: string | undefined): OIDCCheck[] {
  const checks: OIDCCheck[] = [...(config.checks ?? ["pkce"])]
  for (const check of checks) {
    if (!KNOWN_CHECKS.includes(check)) throw new InvalidProviderError(config.id, "checks", `unknown check "${String(check).slice(0, 64)}"${typeof check === "string" ? didYouMean(check, KNOWN_CHECKS) : ""}.`)
  }
  if (config.type === "oauth" && checks.includes("nonce")) {
    throw new InvalidProviderError(config.id, "checks", 'the "nonce" check needs an id_token, so it applies only to "oidc" providers.')
  }
  if (checks.includes("none") && checks.length > 1) {
    throw new InvalidProviderError(config.id, "checks", '"none" cannot be combined with other checks.')
  }
  // A proxied callback comes back through another origin, where only state ties it to this flow.
  const proxied = config.redirectProxyUrl ?? appRedirectProxy
  if (proxied !== undefined && !checks.includes("state")) return [...checks.filter((check) => check !== "none"), "state"]
  return checks
}

function checkEndpoints(provider: ResolvedOAuthProvider): void {
  const { id, type, issuer, wellKnown, authorization, token, userinfo } = provider
  if (type === "oidc" && issuer === undefined) {
    throw new InvalidProviderError(id, "issuer", `an OpenID Connect provider needs an issuer (set it, or ${envName(id, "ISSUER")}).`)
  }
  if (issuer === undefined && wellKnown === undefined) {
    if (authorization.url === undefined) throw new InvalidProviderError(id, "authorization", "neither an issuer nor an authorization endpoint is configured.")
    if (token.url === undefined && token.request === undefined) throw new InvalidProviderError(id, "token", "neither an issuer nor a token endpoint is configured.")
    if (userinfo.url === undefined && userinfo.request === undefined) throw new InvalidProviderError(id, "userinfo", "neither an issuer nor a userinfo endpoint is configured.")
  }
  for (const [field, url] of [
    ["issuer", issuer],
    ["wellKnown", wellKnown],
    ["jwks_endpoint", provider.jwks_endpoint],
    ["authorization", authorization.url],
    ["token", token.url],
    ["userinfo", userinfo.url],
    ["redirectProxyUrl", provider.redirectProxyUrl],
  ] as const) {
    checkUrl(id, field, url)
  }
  const { revocation } = provider.capabilities
  if (typeof revocation === "string") checkUrl(id, "capabilities.revocation", revocation)
}

const BASE_URL = "{baseUrl}"

/** Whether an endpoint URL has the `{baseUrl}` placeholder of a self-hosted OAuth 2.0 provider. */
function isTemplated(config: OAuthConfig): boolean {
  return ENDPOINTS.some((endpoint) => {
    const value = config[endpoint]
    return (typeof value === "string" ? value : value?.url)?.includes(BASE_URL)
  })
}

/**
 * Settles which field names a self-hosted instance. A templated provider takes Auth.js's spelling,
 * `issuer`, as its `baseUrl` (Mattermost, Nextcloud, Mastodon…); any other provider refuses a
 * `baseUrl`, which it would otherwise ignore and sign users in at its default host.
 */
function instanceUrl(config: OAuthConfig): OAuthConfig {
  if (!isTemplated(config)) {
    if (config.baseUrl === undefined) return config
    throw new InvalidProviderError(config.id, "baseUrl", "no instance URL to set; name a self-hosted server by its issuer.")
  }
  if (config.baseUrl !== undefined || config.issuer === undefined) return config
  const { issuer, ...rest } = config
  return { ...rest, baseUrl: issuer } as OAuthConfig
}

/** The issuer a discovery URL describes, for a configuration that gives only `wellKnown`. */
function issuerFromWellKnown(id: string, wellKnown: string): string {
  const url = wellKnown.replace(/[?#].*$/, "")
  const suffix = WELL_KNOWN_SUFFIXES.find((candidate) => url.endsWith(candidate))
  if (suffix === undefined) throw new InvalidProviderError(id, "issuer", "set the issuer this wellKnown URL describes.")
  return url.slice(0, -suffix.length)
}

/** Fills `{baseUrl}` in endpoint URLs with the instance URL of a self-hosted OAuth 2.0 provider. */
function fillBaseUrl(config: OAuthConfig, env: EnvRecord): OAuthConfig {
  if (!isTemplated(config)) return config
  const configured = config.baseUrl ?? readEnv(envName(config.id, "ISSUER"), env)
  const baseUrl = configured === undefined ? undefined : trimTrailingSlashes(configured)
  if (!baseUrl) throw new InvalidProviderError(config.id, "baseUrl", `no instance URL: pass baseUrl, or set ${envName(config.id, "ISSUER")}.`)
  const filled: OAuthConfig = { ...config, baseUrl }
  const revocation = config.capabilities?.revocation
  if (typeof revocation === "string") filled.capabilities = { ...config.capabilities!, revocation: revocation.replace(BASE_URL, baseUrl) }
  for (const endpoint of ENDPOINTS) {
    const value = config[endpoint]
    if (typeof value === "string") Object.assign(filled, { [endpoint]: value.replace(BASE_URL, baseUrl) })
    else if (value?.url) Object.assign(filled, { [endpoint]: { ...value, url: value.url.replace(BASE_URL, baseUrl) } })
  }
  return filled
}

function resolveOAuth(unfilled: OAuthConfig, handWritten: boolean, urls: AppUrls, options: ResolveProvidersOptions, env: EnvRecord): ResolvedOAuthProvider {
  const config = fillBaseUrl(instanceUrl(unfilled), env)
  const { id } = config
  const quirks = config.quirks ?? {}
  // A templated (self-hosted OAuth 2.0) provider's ISSUER variable is its base URL, not an issuer.
  let issuer = config.issuer ?? (config.baseUrl === undefined ? readEnv(envName(id, "ISSUER"), env) : undefined)
  if (issuer !== undefined && quirks.instanceIssuer) issuer = trimTrailingSlashes(issuer)
  if (issuer === undefined && config.wellKnown !== undefined && !config.wellKnown.includes(ISSUER)) issuer = issuerFromWellKnown(id, config.wellKnown)
  const wellKnown = issuer === undefined ? config.wellKnown : config.wellKnown?.replace(ISSUER, issuer)
  const authorization = mergeEndpoint<never>(config.authorization, undefined)
  if (quirks.formPost) authorization.params.response_mode ??= "form_post"
  if (config.type === "oidc" || (handWritten && config.authorization !== undefined)) authorization.params.scope ??= DEFAULT_SCOPE
  const clientId = config.clientId ?? readEnv(envName(id, "ID"), env)
  if (clientId === undefined || clientId === "") {
    throw new InvalidProviderError(id, "clientId", `no client id: pass clientId, or set ${envName(id, "ID")}.`)
  }
  const resolved: ResolvedOAuthProvider = {
    id,
    name: typeof config.name === "string" && config.name !== "" ? config.name : id,
    type: config.type,
    ...urls,
    authorization,
    token: mergeEndpoint<TokenEndpointHandler>(config.token, undefined),
    userinfo: mergeEndpoint<UserinfoEndpointHandler>(config.userinfo, undefined),
    checks: settleChecks(config, options.redirectProxyUrl),
    clientId,
    client: config.client ?? {},
    idToken: config.type === "oidc" ? (config.idToken ?? true) : false,
    profile: config.profile ?? defaultProfile,
    account: config.account ?? defaultAccount,
    allowDangerousEmailAccountLinking: config.allowDangerousEmailAccountLinking ?? false,
    style: config.style ?? {},
    quirks,
    // Unknown providers are assumed to refresh, and to revoke when discovery can say where.
    capabilities: config.capabilities ?? { refresh: true, revocation: issuer !== undefined || config.wellKnown !== undefined },
  }
  const clientSecret = config.clientSecret ?? readEnv(envName(id, "SECRET"), env)
  const optional = { issuer, baseUrl: config.baseUrl, clientSecret, clientPrivateKey: config.clientPrivateKey, wellKnown, jwks_endpoint: config.jwks_endpoint, docs: config.docs }
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(resolved, { [key]: value })
  const redirectProxyUrl = config.redirectProxyUrl ?? options.redirectProxyUrl
  if (redirectProxyUrl !== undefined) resolved.redirectProxyUrl = redirectProxyUrl
  checkEndpoints(resolved)
  return resolved
}

function resolveOther(config: Exclude<ProviderConfig, OAuthConfig>, urls: AppUrls, env: EnvRecord): ResolvedProvider {
  if (config.type === "email") {
    const apiKey = config.apiKey ?? readEnv(envName(config.id, "KEY"), env)
    if (typeof config.sendVerificationRequest !== "function") {
      throw new InvalidProviderError(config.id, "sendVerificationRequest", "an email provider needs a sendVerificationRequest function.")
    }
    return { ...config, ...(apiKey === undefined ? {} : { apiKey }), ...urls }
  }
  if (config.type === "credentials" && typeof config.authorize !== "function") {
    throw new InvalidProviderError(config.id, "authorize", "a credentials provider needs an authorize function.")
  }
  return { ...config, ...urls } as ResolvedProvider
}

type AppUrls = Pick<AppProvider, "signinUrl" | "callbackUrl">

function appUrls(config: ProviderConfig, options: ResolveProvidersOptions): AppUrls {
  const base = `${trimTrailingSlashes(options.baseUrl)}${trimTrailingSlashes(options.basePath ?? "/auth")}`
  return {
    signinUrl: `${base}/signin/${encodeURIComponent(config.id)}`,
    callbackUrl: `${base}/callback/${encodeURIComponent(config.id)}`,
  }
}

/** The configuration with the user's options merged in, and whether it was written by hand. */
function materialize(provider: Provider<any>, index: number): { config: ProviderConfig; handWritten: boolean } {
  // A widened config (`type: string`, see WidenedOAuthConfig) is read as the config its type names; resolveProvider refuses any other type.
  const config = (typeof provider === "function" ? provider() : provider) as ProviderConfig
  if (typeof config !== "object" || config === null || typeof config.id !== "string" || config.id === "") {
    throw new InvalidProviderError(`#${index}`, "id", "every provider needs a non-empty string id.")
  }
  // A factory's output carries the user's options apart from its record; a hand-written one is all the user's.
  const options = (config as { options?: Record<string, unknown> }).options
  if (config.type === "oauth" || config.type === "oidc") checkFields(config.id, config.type, options ?? (config as unknown as Record<string, unknown>))
  return { config: mergeOptions(config), handWritten: options === undefined }
}

/**
 * Resolves one provider. See {@link resolveProviders}; this is its per-provider step, for code
 * that works with a single provider, such as `latchkey/oauth`.
 *
 * Exported from `latchkey/providers`.
 *
 * @example
 * ```ts
 * import { resolveProvider } from "latchkey/providers"
 * import GitHub from "latchkey/providers/github"
 * const github = resolveProvider(GitHub({ clientId: "Iv1.x", clientSecret: "…" }), { baseUrl: "https://app.example.com" })
 * github.callbackUrl // "https://app.example.com/auth/callback/github"
 * ```
 */
export function resolveProvider(provider: Provider<any>, options: ResolveProvidersOptions, index = 0): ResolvedProvider {
  const { config, handWritten } = materialize(provider, index)
  const env = options.env ?? processEnv()
  checkAppUrl(options.baseUrl)
  const urls = appUrls(config, options)
  if (config.type === "oauth" || config.type === "oidc") return resolveOAuth(config, handWritten, urls, options, env)
  if (config.type === "email" || config.type === "credentials" || config.type === "webauthn" || config.type === "password") return resolveOther(config, urls, env)
  const { id, type } = config as { id: string; type: unknown }
  const suggestion = typeof type === "string" ? didYouMean(type, PROVIDER_TYPES) : ""
  throw new InvalidProviderError(id, "type", `unknown provider type "${String(type).slice(0, 64)}"${suggestion}; it is one of ${PROVIDER_TYPES.join(", ")}.`)
}

/**
 * Turns the configured providers into the ones that run: uncalled factories are called, user
 * options merge over defaults (objects merge, arrays and functions replace, `undefined` never
 * overrides), `AUTH_<ID>_ID`/`_SECRET`/`_ISSUER`/`_KEY` fill missing values, named quirks are
 * applied, checks are settled (default `["pkce"]`; a redirect proxy adds `"state"`), every
 * endpoint is validated, and each provider gets its `signinUrl` and `callbackUrl`.
 *
 * Exported from `latchkey/providers`.
 *
 * A configuration that names no scope asks for `openid profile email` when it is OpenID Connect, or
 * OAuth 2.0 written by hand with its own authorization endpoint (as Auth.js does).
 *
 * @throws {@link index!InvalidProviderError} naming the provider and field, for a duplicate id, a
 * missing client id, an OAuth provider with neither an issuer nor its endpoints, a non-https
 * endpoint (loopback excepted), an unknown check, `"nonce"` on an OAuth 2.0 provider, or an option
 * the provider does not understand (never dropped in silence: a `baseUrl` for a provider with no
 * instance, Auth.js v3/v4's top-level `scope`, a typo).
 *
 * @example
 * ```ts
 * import { resolveProviders, GitHub, Google } from "latchkey/providers"
 * const providers = resolveProviders([GitHub, Google({ clientId: "…", clientSecret: "…" })], {
 *   baseUrl: "https://app.example.com",
 *   basePath: "/auth",
 * })
 * ```
 */
export function resolveProviders(providers: AppProviders, options: ResolveProvidersOptions): ResolvedProvider[] {
  if (!Array.isArray(providers)) throw new InvalidProviderError("app", "providers", "providers must be an array.")
  const seen = new Set<string>()
  return providers.map((provider, index) => {
    const resolved = resolveProvider(provider, options, index)
    if (seen.has(resolved.id)) {
      throw new InvalidProviderError(resolved.id, "id", `the id is used twice; give one instance another id, such as "${resolved.id}-2".`)
    }
    seen.add(resolved.id)
    return resolved
  })
}
