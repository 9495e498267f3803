/**
 * `createAuth`'s configuration: what a user writes, and what one request resolves it to (the public
 * base URL, whether cookies are secure). Host headers are trusted only when `trustHost` (or
 * `AUTH_TRUST_HOST`) says so; `AUTH_URL` pins the public URL instead.
 */
import { InvalidOptionError } from "../errors.js"
import { processEnv, readEnv, secretsFromEnv, type EnvRecord } from "../env.js"
import type { JWTDecodeParams, JWTEncodeParams } from "../jwt/codec.js"
import type { SecretInput } from "../jwt/secrets.js"
import { secretsOrEnv } from "../jwt/secrets.js"
import type { Adapter, AdapterSession, AdapterUser } from "../adapters/adapter.js"
import type { RefreshCoordinator } from "../provider-tokens/refresh-types.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { AppProviders, ResolvedProvider } from "../providers/types.js"
import type { Account, Awaitable, JWT, LoggerInstance, Profile, Session, User } from "../types.js"
import { trimTrailingSlashes } from "../lib/trim-slashes.js"
import type { WebAuthnCeremony } from "../webauthn/types.js"
import { checkCookiesOption, type CookiesOptions } from "./cookies.js"
import { settleDiagnostics, type Diagnostics } from "./diagnostics.js"
import { settleLogger } from "./logger.js"
import { checkSecretStrength } from "./secret-strength.js"
import { settleRedirectProxy, type RedirectProxy } from "./redirect-proxy.js"

/**
 * Callbacks that shape the sign-in, the token and the session. `J` is what the `jwt` callback
 * returns (it types the `session` callback's `token`), `S` what the `session` callback returns (it
 * types `auth()`, and through `InferSession` the client's session): both are inferred from the
 * callbacks `createAuth` is given, so no `declare module` is needed.
 *
 * @example
 * ```ts
 * import type { AuthCallbacks } from "latchkey"
 * const callbacks: AuthCallbacks = {
 *   jwt: ({ token, account }) => (account ? { ...token, provider: account.provider } : token),
 *   session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
 * }
 * ```
 */
export interface AuthCallbacks<J extends JWT = JWT, S extends Session = Session> {
  /** Return false (or a relative URL to redirect to) to refuse a sign-in. */
  signIn?: (params: { user: User; account: Account | null; profile?: Profile; email?: { verificationRequest?: boolean } }) => Awaitable<boolean | string>
  /** Where to send the user after sign-in or sign-out; only relative or same-origin URLs are honoured. */
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** Shapes the session token. `trigger` says why it runs. (Method syntax, so a config typed by its own `J` and `S` is still an `AuthConfig`.) */
  jwt?(params: {
    token: JWT
    user?: User
    account?: Account | null
    profile?: Profile
    isNewUser?: boolean
    /** `"signUp"` when an adapter created the user in this sign-in, as in Auth.js. */
    trigger: "signIn" | "signUp" | "update" | "session"
    session?: unknown
  }): Awaitable<J | null>
  /** Shapes what `/session` and `auth()` return. */
  session?(params: {
    session: Session
    /** The session token's claims (what the `jwt` callback returned); with database sessions, claims made from the user (`sub` is the user's id). */
    token: J
    /** Database sessions: the adapter's user. */
    user?: AdapterUser
  }): Awaitable<S>
}

/**
 * Notifications, for auditing; their return values are ignored, and an error one throws is logged without failing the request.
 *
 * @example
 * ```ts
 * import type { AuthEvents } from "latchkey"
 * const events: AuthEvents = {
 *   signIn: ({ user, account, isNewUser }) => console.info("sign-in", user.id, account?.provider, isNewUser),
 *   signOut: ({ token }) => console.info("sign-out", token?.sub),
 * }
 * ```
 */
export interface AuthEvents {
  signIn?: (message: { user: User; account: Account | null; isNewUser?: boolean }) => Awaitable<void>
  /** `token` for JWT sessions; `session` (the adapter's row) for database sessions. */
  signOut?: (message: { token: JWT | null; session?: AdapterSession | null }) => Awaitable<void>
  createUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** An existing user was updated: their `emailVerified`, when they follow an emailed link. */
  updateUser?: (message: { user: AdapterUser }) => Awaitable<void>
  /** A session was read through `/session`. */
  session?: (message: { session: Session; token: JWT }) => Awaitable<void>
  linkAccount?: (message: { user: AdapterUser; account: Account }) => Awaitable<void>
}

/**
 * Custom page locations (paths or absolute same-origin URLs).
 *
 * @example
 * ```ts
 * import type { AuthPages } from "latchkey"
 * const pages: AuthPages = { signIn: "/login", error: "/login/error" } // the error page gets `?error=<code>`
 * ```
 */
export interface AuthPages {
  signIn?: string
  signOut?: string
  error?: string
  verifyRequest?: string
  /** Where a user goes after the sign-in that created them (with `?callbackUrl=`), as in Auth.js. */
  newUser?: string
}

/**
 * The default pages' look.
 *
 * @example
 * ```ts
 * import type { AuthTheme } from "latchkey"
 * const theme: AuthTheme = { brandColor: "#0f766e", logo: "https://app.example.com/logo.svg", colorScheme: "auto" }
 * ```
 */
export interface AuthTheme {
  brandColor?: string
  logo?: string
  colorScheme?: "auto" | "light" | "dark"
  buttonText?: string
}

/**
 * Everything `createAuth` accepts. `J` and `S` are the types the `jwt` and `session` callbacks
 * return (see {@link AuthCallbacks}); `createAuth` infers them.
 *
 * @example
 * ```ts
 * import { createAuth, type AuthConfig } from "latchkey"
 * import Google from "latchkey/providers/google"
 * const config: AuthConfig = { providers: [Google], basePath: "/api/auth", session: { maxAge: 7 * 24 * 60 * 60 } }
 * export const { handler, auth } = createAuth(config) // secret from AUTH_SECRET
 * ```
 */
export interface AuthConfig<J extends JWT = JWT, S extends Session = Session> {
  providers: AppProviders
  /** Default: `AUTH_SECRET` (and `AUTH_SECRET_1`…`_3` for rotation). */
  secret?: SecretInput
  /** Where the handler is mounted. Default `/auth`. */
  basePath?: string
  session?: {
    /**
     * Where sessions live: `"jwt"`, sealed in the cookie, or `"database"`, a row through the adapter
     * with an opaque token in the cookie. Default: `"database"` with an adapter, else `"jwt"`, as
     * in Auth.js.
     */
    strategy?: "jwt" | "database"
    maxAge?: number
    updateAge?: number
    /**
     * Database sessions only: keep a sealed copy of the session in a short-lived cookie, so most
     * reads skip the database. A revoked session then ends within `maxAge` seconds, not at once.
     */
    cache?: { maxAge: number }
    /**
     * The session cookie is shared with sibling subdomains on purpose (its `domain` is set, such as
     * `.example.com`). A session is bound to the browser it was signed in in, through a hash of the
     * CSRF token in a host-only (`__Host-`) cookie, and by default a session is honoured only where
     * that cookie matches, so a session a sibling planted counts as signed out. The sibling hosts
     * of an app that shares its sessions never see that cookie: set this to honour a session on
     * any host that receives it. Account linking and passkey registration still need the
     * session's own browser. Default false.
     *
     * @example
     * ```ts
     * import { createAuth } from "latchkey"
     * import GitHub from "latchkey/providers/github"
     * export const { handler, auth } = createAuth({
     *   providers: [GitHub],
     *   cookies: { sessionToken: { options: { domain: ".example.com" } } },
     *   session: { sharedAcrossSubdomains: true },
     * })
     * ```
     */
    sharedAcrossSubdomains?: boolean
  }
  jwt?: {
    maxAge?: number
    encode?: (params: JWTEncodeParams) => Awaitable<string>
    decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  }
  callbacks?: AuthCallbacks<J, S>
  events?: AuthEvents
  adapter?: Adapter
  pages?: AuthPages
  theme?: AuthTheme
  /**
   * Where latchkey logs. Default: `console`, prefixed `[latchkey]` with the error code, as Auth.js
   * does. Each method given replaces the console for its level.
   */
  logger?: LoggerInstance
  /** Also log the debug level (to `logger.debug`, else the console). Default false. */
  debug?: boolean
  /**
   * For preview deployments: the handler URL of the stable deployment whose callback URL the
   * providers know, such as `https://auth.example.com/auth`. Default: `AUTH_REDIRECT_PROXY_URL`.
   * Needs `redirectProxyOrigins`.
   */
  redirectProxyUrl?: string
  /**
   * The origins the redirect proxy may forward sign-ins to, such as `["https://myapp-*.vercel.app"]`
   * (`*` matches letters, digits and hyphens within one label). Default: the comma-separated
   * `AUTH_REDIRECT_PROXY_ORIGINS`.
   */
  redirectProxyOrigins?: string[]
  /** Trust the request's Host (and X-Forwarded-Host/Proto). Default: `AUTH_TRUST_HOST`. */
  trustHost?: boolean
  /** Default: whether the public URL is https. */
  useSecureCookies?: boolean
  /**
   * Names and attributes of the handler's cookies (`sessionToken`, `callbackUrl`, `csrfToken`), as
   * in Auth.js. The defaults are Auth.js's own names. `{ sessionToken: { name: "__Host-authjs.session-token" } }`
   * makes the session cookie impossible for a sibling subdomain to set, at the cost of a name that
   * Auth.js does not read.
   */
  cookies?: CookiesOptions
  /** Replaces the global fetch for provider requests: for tests, proxies and custom TLS. */
  fetch?: typeof fetch
  /** Milliseconds before a request to a provider is abandoned. Default 10 000. */
  timeout?: number
  /** Where env defaults are read. Default: the process environment. */
  env?: EnvRecord
  /**
   * The passkey ceremony, from `latchkey/webauthn`: `import { webauthn } from "latchkey/webauthn"`.
   * Needed by `Passkey` and `WebAuthn` providers, and by nothing else, so apps without passkeys
   * do not bundle it. See docs/passkeys.md.
   */
  webauthn?: WebAuthnCeremony
  /**
   * Provider tokens kept with the session: `providerTokens({ refresh: true, signOut: { federated: true } })`
   * from `latchkey/provider-tokens`. Every provider-token option is an option of that plug-in:
   * `refresh` keeps access tokens fresh and puts `getAccessToken` on what `createAuth` returns;
   * `signOut` signs out at the provider too. Apps that keep no provider tokens do not bundle it.
   * See docs/provider-tokens.md.
   */
  providerTokens?: ProviderTokensEngine
}

/** The settled configuration, shared by every request. */
export interface SettledConfig {
  secret: string[]
  basePath: string
  sessionMaxAge: number
  updateAge: number
  /** Where sessions live. */
  sessionStrategy: "jwt" | "database"
  /** Database sessions: seconds a sealed copy in a cookie is trusted; 0 for none. */
  sessionCacheMaxAge: number
  /** Whether a session bound to another browser counts as signed out (false with `session.sharedAcrossSubdomains`). */
  sessionsBoundToBrowser: boolean
  trustHost: boolean
  /** `AUTH_URL`, when set: the pinned public origin. */
  pinnedUrl: URL | undefined
  config: AuthConfig
  env: EnvRecord
  /** The logger in force: the app's methods, else the console's. */
  logger: Required<LoggerInstance>
  /** Development hints and once-only warnings (see diagnostics.ts). */
  diagnostics: Diagnostics
  /** `redirectProxyUrl` or `AUTH_REDIRECT_PROXY_URL`, for provider resolution. */
  redirectProxyUrl: string | undefined
  /** The redirect proxy, settled, when one is configured. */
  redirectProxy: RedirectProxy | undefined
  /** With `providerTokens({ refresh })`: what refreshes provider tokens, one refresh in flight. */
  refresher: RefreshCoordinator | undefined
  /** The app's `providerTokens` plug-in; undefined without one, so nothing is asked of it. */
  providerTokens: ProviderTokensEngine | undefined
}

const DAY = 24 * 60 * 60

function positiveSeconds(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new InvalidOptionError(option, `${option} must be a whole number of seconds.`)
  return value as number
}

/** Validates and settles the configuration once. */
export function settleConfig(config: AuthConfig): SettledConfig {
  if (typeof config !== "object" || config === null || !Array.isArray(config.providers)) {
    throw new InvalidOptionError("providers", "createAuth needs a providers array.")
  }
  const env = config.env ?? processEnv()
  const logger = settleLogger(config.logger, config.debug)
  const pinnedUrl = authUrlOf(legacyFallback(env, "AUTH_URL", "NEXTAUTH_URL", logger))
  const basePath = trimTrailingSlashes(config.basePath ?? pinnedUrl?.pathname ?? "/auth") || "/auth"
  if (!basePath.startsWith("/")) throw new InvalidOptionError("basePath", "basePath must start with /.")
  checkCookiesOption(config.cookies)
  checkPages(config.pages, pinnedUrl)
  const redirectProxyUrl = config.redirectProxyUrl ?? readEnv("AUTH_REDIRECT_PROXY_URL", env)
  const sessionMaxAge = positiveSeconds(config.session?.maxAge ?? config.jwt?.maxAge, "session.maxAge", 30 * DAY)
  if (sessionMaxAge === 0) throw new InvalidOptionError("session.maxAge", "session.maxAge must be more than 0 seconds.")
  const secret = secretsOrEnv(config.secret ?? envSecrets(env, logger))
  checkSecretStrength(config.secret, secret, env, logger)
  return {
    secret,
    basePath,
    sessionMaxAge,
    updateAge: positiveSeconds(config.session?.updateAge, "session.updateAge", DAY),
    ...settleStrategy(config),
    sessionsBoundToBrowser: config.session?.sharedAcrossSubdomains !== true,
    trustHost: config.trustHost ?? ["true", "1"].includes(readEnv("AUTH_TRUST_HOST", env) ?? ""),
    pinnedUrl,
    config,
    env,
    logger,
    diagnostics: settleDiagnostics(env, config.debug, logger),
    redirectProxyUrl,
    redirectProxy: settleRedirectProxy(redirectProxyUrl, config.redirectProxyOrigins ?? readEnv("AUTH_REDIRECT_PROXY_ORIGINS", env)?.split(",")),
    ...settleProviderTokens(config, secret, logger),
  }
}

const PLUG_IN = 'with `import { providerTokens } from "latchkey/provider-tokens"`'

/**
 * The provider-token plug-in, settled: the refresher, and the engine the handler calls. The
 * options that were once `createAuth`'s own (`session.refreshProviderTokens`, `signOut`) are
 * refused, naming their place in the plug-in: a config error, not a second way to say it.
 */
function settleProviderTokens(config: AuthConfig, secret: string[], logger: Required<LoggerInstance>): Pick<SettledConfig, "refresher" | "providerTokens"> {
  if ((config.session as { refreshProviderTokens?: unknown } | undefined)?.refreshProviderTokens !== undefined) {
    throw new InvalidOptionError("session.refreshProviderTokens", `session.refreshProviderTokens is an option of the provider-tokens plug-in: providerTokens: providerTokens({ refresh: true }), ${PLUG_IN}.`)
  }
  if ((config as { signOut?: unknown }).signOut !== undefined) {
    throw new InvalidOptionError("signOut", `signOut is an option of the provider-tokens plug-in: providerTokens: providerTokens({ signOut: { federated: true } }), ${PLUG_IN}.`)
  }
  const engine: unknown = config.providerTokens
  if (engine === undefined) return { refresher: undefined, providerTokens: undefined }
  if (typeof engine !== "object" || engine === null || typeof (engine as ProviderTokensEngine).settleRefresher !== "function") {
    throw new InvalidOptionError("providerTokens", `providerTokens must be the plug-in providerTokens({ refresh: true }) makes (call it with its options), ${PLUG_IN}.`)
  }
  const plugIn = engine as ProviderTokensEngine
  return { refresher: plugIn.settleRefresher({ secret, http: { fetch: config.fetch, timeout: config.timeout }, logger }), providerTokens: plugIn }
}

/**
 * `name` from the environment, else next-auth v4's `legacy` name for it, with a warning, so a v4
 * app's `.env` keeps working while it is renamed.
 */
function legacyFallback(env: EnvRecord, name: string, legacy: string, logger: Required<LoggerInstance>): string | undefined {
  const value = readEnv(name, env)
  if (value !== undefined) return value
  const old = readEnv(legacy, env)
  if (old !== undefined) logger.warn("LEGACY_ENV", { message: `${legacy} is read as ${name}; rename it` })
  return old
}

/** The secrets from `AUTH_SECRET` and its rotation variables, else next-auth v4's `NEXTAUTH_SECRET`. */
function envSecrets(env: EnvRecord, logger: Required<LoggerInstance>): string[] | undefined {
  const secrets = secretsFromEnv(env)
  if (secrets.length === 0) {
    const legacy = legacyFallback(env, "AUTH_SECRET", "NEXTAUTH_SECRET", logger)
    if (legacy !== undefined) secrets.push(legacy)
  }
  return nonEmpty(secrets)
}

/** A page on another origin would take the user off the app: refused when the origin is known. */
function checkPages(pages: AuthPages | undefined, pinnedUrl: URL | undefined): void {
  for (const [name, value] of Object.entries(pages ?? {})) {
    if (typeof value !== "string" || value === "") throw new InvalidOptionError(`pages.${name}`, `pages.${name} must be a path or a URL on the app's origin.`)
    const absolute = URL.canParse(value) ? new URL(value) : undefined
    if (absolute && pinnedUrl && absolute.origin !== pinnedUrl.origin) {
      throw new InvalidOptionError(`pages.${name}`, `pages.${name} is on another origin than AUTH_URL (${pinnedUrl.origin}).`)
    }
  }
}

/** The session strategy, and its cache; a strategy or cache that cannot work is refused. */
function settleStrategy(config: AuthConfig): { sessionStrategy: "jwt" | "database"; sessionCacheMaxAge: number } {
  const strategy = config.session?.strategy ?? (config.adapter ? "database" : "jwt")
  if (strategy !== "jwt" && strategy !== "database") throw new InvalidOptionError("session.strategy", 'session.strategy must be "jwt" or "database".')
  if (strategy === "database" && !config.adapter) throw new InvalidOptionError("session.strategy", 'database sessions need an adapter; pass one, or use strategy "jwt".')
  const cache = config.session?.cache
  if (cache !== undefined && strategy !== "database") throw new InvalidOptionError("session.cache", "session.cache is for database sessions.")
  return { sessionStrategy: strategy, sessionCacheMaxAge: positiveSeconds(cache?.maxAge, "session.cache.maxAge", 0) }
}

/** `AUTH_URL` parsed, or undefined when unset; a value that is not an http(s) URL is refused by name. */
function authUrlOf(value: string | undefined): URL | undefined {
  if (!value) return undefined
  const parsed = URL.canParse(value) ? new URL(value) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") {
    throw new InvalidOptionError("AUTH_URL", "AUTH_URL must be the app's absolute http(s) URL, such as https://app.example.com/auth.")
  }
  return parsed
}

function nonEmpty(list: string[]): string[] | undefined {
  return list.length > 0 ? list : undefined
}

/** One request's view of the configuration. */
export interface RequestContext extends SettledConfig {
  request: Request
  /** The request's URL, parsed once for every route to read. */
  url: URL
  /** The app's public origin, such as `https://app.example.com`. */
  origin: string
  /** Origin plus base path: where the handler's routes live. */
  baseUrl: string
  secure: boolean
  providers: ResolvedProvider[]
}

/** Fires an event; a throwing handler is logged, and the request goes on. */
export async function fireEvent<K extends keyof AuthEvents>(context: { config: AuthConfig; logger: Required<LoggerInstance> }, name: K, message: Parameters<NonNullable<AuthEvents[K]>>[0]): Promise<void> {
  const handler = context.config.events?.[name] as ((message: unknown) => Awaitable<void>) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    context.logger.error(error as Error)
  }
}
