/**
 * What an app writes: `createAuth`'s options (`AuthConfig`) and the page and theme options inside
 * them. Types only; settle.ts checks and settles them once. The callbacks and events an app passes
 * are typed on the storage floor (adapters/callbacks.ts, adapters/events.ts), because the session
 * store runs them too.
 */
import type { AuthCallbacks } from "../adapters/callbacks.js"
import type { SignInEvents } from "../adapters/events.js"
import type { Adapter } from "../adapters/adapter.js"
import type { SessionVersionStore } from "../adapters/session-versions.js"
import type { JWTDecodeParams, JWTEncodeParams } from "../jwt/codec.js"
import type { SecretInput } from "../jwt/secrets.js"
import type { CookiesOptions } from "../jwt/cookie-names.js"
import type { EnvRecord } from "../env.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { TrustedProxy } from "../rate-limits/client-ip.js"
import type { RateLimitEvent, RateLimitPlugIn } from "../rate-limits/types.js"
import type { AppProviders } from "../providers/types.js"
import type { Awaitable, JWT, LoggerInstance, Session } from "../types.js"
import type { WebAuthnCeremony } from "../webauthn/types.js"
import type { PasswordsPlugIn } from "../passwords/host.js"

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
 * Notifications, for auditing (`events` in `createAuth`'s options): Auth.js's sign-in and session
 * events, and `rateLimited` from the rate limits. Their return values are ignored, and an error one
 * throws is logged without failing the request.
 *
 * @example
 * ```ts
 * import type { AuthEvents } from "latchkey"
 * const events: AuthEvents = {
 *   signIn: ({ user, account, isNewUser }) => console.info("sign-in", user.id, account?.provider, isNewUser),
 *   rateLimited: ({ route, key }) => console.warn("rate limited", route, key),
 * }
 * ```
 */
export interface AuthEvents extends SignInEvents {
  /** An attempt was refused by a rate limit or the captcha hook: no identifier in clear. */
  rateLimited?: (message: RateLimitEvent) => Awaitable<void>
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
    /** Seconds a session lasts without use; each use slides it (see `updateAge`). Default 30 days. */
    maxAge?: number
    /**
     * Seconds between slides: a session in use is re-issued (JWT) or its row extended (database) once
     * it is this old. Default 1 day, or a tenth of `maxAge` when that is shorter, so a short `maxAge`
     * is an idle timeout, as in Auth.js's JWT sessions, not a fixed one. A value not below `maxAge`
     * would never slide: the default is used instead, with a `SESSION_UPDATE_AGE` warning.
     */
    updateAge?: number
    /**
     * Database sessions only: keep a sealed copy of the session in a short-lived cookie, so most
     * reads skip the database. A revoked session then ends within `maxAge` seconds, not at once.
     */
    cache?: { maxAge: number }
    /**
     * JWT sessions only: where each user's session version lives, which is what lets
     * `revokeSessions(user)` (and a password reset) sign out every JWT session of a user at its
     * next read. Default: `memorySessionVersions()`, which only this instance sees (production warns
     * at the first revocation); an app with several instances passes `redisSessionVersions(redis)`
     * from `latchkey/redis`. `false` turns revocation off: tokens carry no version, reads look
     * nothing up, and `revokeSessions` throws. See docs/sessions.md.
     *
     * @example
     * ```ts
     * import Redis from "ioredis"
     * import { createAuth } from "latchkey"
     * import { redisSessionVersions } from "latchkey/redis"
     * import GitHub from "latchkey/providers/github"
     * export const { handler, auth, revokeSessions } = createAuth({
     *   providers: [GitHub],
     *   session: { strategy: "jwt", revocationStore: redisSessionVersions(new Redis(process.env.REDIS_URL!)) },
     * })
     * ```
     */
    revocationStore?: SessionVersionStore | false
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
   * The origins the redirect proxy may forward sign-ins to, such as `["https://*.preview.example.com"]`
   * (`*` matches letters, digits and hyphens within one label). A wildcard must match only names you
   * alone can create: under a shared host (`https://myapp-*.vercel.app`) anyone can deploy a matching
   * project and have codes forwarded to it. Default: the comma-separated `AUTH_REDIRECT_PROXY_ORIGINS`.
   */
  redirectProxyOrigins?: string[]
  /** Trust the request's Host (and X-Forwarded-Host/Proto). Default: `AUTH_TRUST_HOST`, or true when `trustedProxy` is set. */
  trustHost?: boolean
  /**
   * The proxy the app runs behind, which names the client's IP address for rate limits (and makes
   * its Host headers trusted, as `trustHost`): `"vercel"`, `"cloudflare"`, `"fly"`, `"nginx"`,
   * `{ header, hops }`, or a function of the request. Without it no forwarding header is believed,
   * and limits count per identifier only. See docs/rate-limits.md.
   */
  trustedProxy?: TrustedProxy
  /**
   * Attempt limits on sign-in routes (credentials, email, passkeys) and a ceiling on every auth
   * route, per client IP and per account: on by default in production, with the default numbers
   * and an in-memory store; `rateLimits({ ... })` from `latchkey/rate-limits` changes them (and
   * turns them on anywhere); `false` turns them off. See docs/rate-limits.md.
   */
  rateLimits?: RateLimitPlugIn | false
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
   * The password-account routes, from `latchkey/passwords`: `import { passwords } from "latchkey/passwords"`.
   * Needed by a `Password` provider, and by nothing else, so apps without passwords do not bundle
   * them. See docs/passwords.md, "Accounts".
   */
  passwords?: PasswordsPlugIn
  /**
   * Provider tokens kept with the session: `providerTokens({ refresh: true, signOut: { federated: true } })`
   * from `latchkey/provider-tokens`. Every provider-token option is an option of that plug-in:
   * `refresh` keeps access tokens fresh and puts `getAccessToken` on what `createAuth` returns;
   * `signOut` signs out at the provider too. Apps that keep no provider tokens do not bundle it.
   * See docs/provider-tokens.md.
   */
  providerTokens?: ProviderTokensEngine
}
