/**
 * What the handler works from: the settled configuration, in named parts, shared by every request
 * (`SettledConfig`), and one request's view of it (`RequestContext`). The session parts are the
 * session store's own `SessionSettings`, so a route hands its context to the store as it is; the
 * plug-ins get theirs through host interfaces (webauthn-host.ts) or their own narrow context types
 * (provider-tokens/host.ts), which a request context satisfies. Types only.
 */
import type { Adapter } from "../adapters/adapter.js"
import type { SessionSettings } from "../adapters/session-store.js"
import type { EnvRecord } from "../env.js"
import type { HttpOptions } from "../oauth/http.js"
import type { RefreshCoordinator } from "../provider-tokens/refresh-types.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { AppProviders, ResolvedProvider } from "../providers/types.js"
import type { WebAuthnCeremony } from "../webauthn/types.js"
import type { PasswordsPlugIn } from "../passwords/host.js"
import type { AuthEvents, AuthPages, AuthTheme } from "./options.js"
import type { RedirectProxy } from "./redirect-proxy.js"
import type { SettledRateLimits } from "./rate-limit-settle.js"

/** The settled configuration, shared by every request. */
export interface SettledConfig extends SessionSettings, SettledRateLimits {
  /** The app's events: the session store's, and the plug-ins' own (`rateLimited`). */
  events: AuthEvents
  basePath: string
  trustHost: boolean
  /** `AUTH_URL`, when set: the pinned public origin. */
  pinnedUrl: URL | undefined
  /** `useSecureCookies`; undefined: secure exactly when the public origin is https. */
  useSecureCookies: boolean | undefined
  env: EnvRecord
  /** The providers as the app listed them, resolved per origin. */
  appProviders: AppProviders
  pages: AuthPages
  theme: AuthTheme | undefined
  /** How provider requests are made: the app's `fetch` and `timeout`. */
  http: HttpOptions
  adapter: Adapter | undefined
  /** The passkey ceremony from `latchkey/webauthn`, when the app passed it. */
  webauthn: WebAuthnCeremony | undefined
  /** The password-account routes from `latchkey/passwords`, when the app passed them. */
  passwords: PasswordsPlugIn | undefined
  /** `redirectProxyUrl` or `AUTH_REDIRECT_PROXY_URL`, for provider resolution. */
  redirectProxyUrl: string | undefined
  /** The redirect proxy, settled, when one is configured. */
  redirectProxy: RedirectProxy | undefined
  /** With `providerTokens({ refresh })`: what refreshes provider tokens, one refresh in flight. */
  refresher: RefreshCoordinator | undefined
  /** The app's `providerTokens` plug-in; undefined without one, so nothing is asked of it. */
  providerTokens: ProviderTokensEngine | undefined
  /** One object per `createAuth` (its options object), which plug-ins key their per-instance memory by. */
  instance: object
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
  /** Set when this request signed someone in (a session was issued): a sign-in clears its identifier's rate-limit count. */
  signedIn?: boolean
  /**
   * The confirmed session the rate-limit gate read for a change of password or address (its key is
   * the session's user). The password route's first read takes it instead of reading the row again:
   * one request, one read of the row, before anything is written.
   */
  gateUser?: ReturnType<SettledConfig["sessions"]["confirmedUser"]>
}
