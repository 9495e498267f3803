/**
 * `latchkey` (root): `createAuth`, the Web-standard `Request → Response` handler that ties the
 * providers, the sign-in flow and the session token together, and `auth()` to read the session in
 * any route. Routes live under `basePath` (default `/auth`): providers, csrf, signin, callback,
 * session, signout, error and verify-request. Every state-changing POST is CSRF-checked, redirects
 * stay on the app's origin, and clients only ever see short error codes.
 *
 * @module
 */
import { developmentHint, warnOnOriginMismatch } from "#development"
import { InvalidProviderError, LatchkeyError } from "../errors.js"
import { requireAdapterMethods } from "../adapters/requirements.js"
import { didYouMean } from "../lib/did-you-mean.js"
import { resolveProviders } from "../providers/core/resolve.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { JWT, Session } from "../types.js"
import type { CookieSession } from "../adapters/session-store.js"
import { accountApi, type AccountApi } from "./accounts.js"
import { readBoundedBody } from "./body.js"
import { brandWithConfig } from "./config-brand.js"
import type { RequestContext, SettledConfig } from "./context.js"
import { errorUrl } from "./complete-sign-in.js"
import { loggableError } from "./loggable-error.js"
import type { AuthConfig } from "./options.js"
import { publicOrigin } from "./origin.js"
import { errorPage } from "./pages/simple.js"
import { returnedRedirect, wantsReturnedRedirect } from "./return-redirect.js"
import { html, json, redirect, text } from "./response.js"
import { formOf, get, JSON_ROUTES, post } from "./routes.js"
import { settleConfig } from "./settle.js"
import { checkAtStartup } from "./startup.js"
import { rateLimitGate, spellingOf } from "./rate-limit-host.js"
import { isPromise } from "../rate-limits/limiter.js"
import { webRequestUrl } from "./web-request.js"
import { PASSWORD_ACTION } from "./password.js"

export type { AuthConfig, AuthEvents, AuthPages, AuthTheme } from "./options.js"
export type { AuthCallbacks } from "../adapters/callbacks.js"
export type { CookieOption, CookiesOptions, HandlerCookie } from "../jwt/cookie-names.js"
export type { AccountApi, AccountOwner } from "./accounts.js"
export type { CookieSession }
export type { ClientErrorCode } from "./errors.js"
export type { PasskeyErrorCode, PasskeySummary } from "../webauthn/types.js"
export type { RateLimitEvent, RateLimitPlugIn } from "../rate-limits/types.js"
export type { TrustedProxy } from "../rate-limits/client-ip.js"
export { MAX_BODY_BYTES } from "./body.js"

/**
 * What {@link createAuth} returns. `S` is the session its `session` callback returns (`Session`
 * without one); `InferSession<typeof auth>` names it for code that cannot import the config. With
 * a `providerTokens` plug-in that refreshes, it is also an {@link AccessTokenApi} (`getAccessToken`).
 *
 * @example
 * ```ts
 * import { createAuth, type Auth } from "latchkey"
 * import GitHub from "latchkey/providers/github"
 * const { handler, auth }: Auth = createAuth({ providers: [GitHub] }) // secret from AUTH_SECRET
 * const session = await auth(request) // null when signed out
 * ```
 */
export interface Auth<S extends Session = Session> extends AccountApi {
  /** Handles every request under `basePath`. */
  handler: (request: Request) => Promise<Response>
  /** The session of a request, or null. Reads only; it never sets cookies. */
  auth: (request: Request) => Promise<S | null>
  /**
   * The session the cookies alone prove, with no adapter call: for a proxy or edge gate. Database
   * sessions are read from their `session.cache` copy; without a fresh one, `unverified` is true
   * for a well-formed token bound to this browser (and false for any other cookie: signed out).
   */
  authFromCookies: (request: Request) => Promise<CookieSession<S>>
  /** Where the handler answers (`basePath`, or `AUTH_URL`'s path, else `/auth`), for integrations that route to it. */
  basePath: string
  /**
   * Lifts the rate-limit lockout of an account (its address or username, normalised as sign-in
   * does) on every route; nothing to do when limits are off. See docs/rate-limits.md.
   */
  clearLockout: (identifier: string) => Promise<void>
}

/**
 * What {@link createAuth} adds when its `providerTokens` plug-in refreshes access tokens
 * (`providerTokens({ refresh: true })` from `latchkey/provider-tokens`); without one, there is no
 * `getAccessToken` to call, in the types and at run time.
 *
 * Exported from `latchkey` (on what `createAuth` returns).
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { providerTokens } from "latchkey/provider-tokens"
 * import Google from "latchkey/providers/google"
 * export const { handler, auth, getAccessToken } = createAuth({ providers: [Google], providerTokens: providerTokens({ refresh: true }) })
 * // in a route:
 * const token = await getAccessToken(request, "google")
 * if (token) await fetch("https://www.googleapis.com/calendar/v3/users/me/calendarList", { headers: { authorization: `Bearer ${token}` } })
 * ```
 */
export interface AccessTokenApi {
  /**
   * The provider access token of the request's session, fresh: refreshed first when it expires
   * within the skew (one refresh in flight, however many requests ask), for server code that calls
   * the provider's API. Null when the session has no token for `providerId`, or the provider
   * refused the refresh. Sets no cookie, like `auth`.
   */
  getAccessToken: (request: Request, providerId: string) => Promise<string | null>
}

/**
 * {@link AccessTokenApi} when the provider-tokens plug-in `P` refreshes access tokens, else nothing:
 * the part of what `createAuth` returns that depends on its `providerTokens` option.
 *
 * Exported from `latchkey`.
 *
 * @example
 * ```ts
 * import type { AccessTokenApiOf } from "latchkey"
 * import type { ProviderTokensEngine } from "latchkey/provider-tokens"
 * type WithToken = AccessTokenApiOf<ProviderTokensEngine<true>> // { getAccessToken }
 * type Without = AccessTokenApiOf<undefined> // unknown: nothing added
 * ```
 */
// Not distributive: a plug-in typed only as `ProviderTokensEngine | undefined` adds nothing, nor does `never`.
export type AccessTokenApiOf<P> = [P] extends [never] ? unknown : [P] extends [ProviderTokensEngine<true>] ? AccessTokenApi : unknown

const MAX_CACHED_ORIGINS = 16

/** The 400 for an untrusted host, logged with what to set; in development the page says it too. */
async function untrustedHost(settled: SettledConfig, url: URL): Promise<Response> {
  const fix = (await import("./untrusted-host.js")).untrustedHostFix(url.origin, settled.basePath)
  settled.logger.error(new LatchkeyError(fix))
  return text(settled.diagnostics.development ? fix : "Untrusted host", 400)
}

/**
 * The request with its POST body read once, bounded, before anything else looks at it (the CSRF
 * check included), and that body as text; undefined when the body is over the limit.
 */
async function buffer(incoming: Request): Promise<{ request: Request; body: string } | undefined> {
  if (incoming.method !== "POST") return { request: incoming, body: "" }
  const body = await readBoundedBody(incoming)
  if (body === undefined) return undefined
  return { request: new Request(incoming.url, { method: "POST", headers: incoming.headers, body }), body }
}

/** A path segment percent-decoded, or undefined when its encoding is malformed. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/**
 * Creates the auth handler for a set of providers.
 *
 * Exported from `latchkey`.
 *
 * @throws {@link index!MissingSecretError} with no secret; {@link index!InvalidOptionError} for a malformed
 * config. Provider configuration errors surface on the first request as the `Configuration`
 * error page, and in full to the logger.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import GitHub from "latchkey/providers/github"
 * export const { handler, auth } = createAuth({ providers: [GitHub], secret: process.env.AUTH_SECRET })
 * // mount `handler` at /auth/*; call `auth(request)` in any route
 * ```
 */
export function createAuth<J extends JWT = JWT, S extends Session = Session, P extends ProviderTokensEngine | undefined = undefined>(
  config: AuthConfig<J, S> & { providerTokens?: P },
): Auth<S> & AccessTokenApiOf<P> {
  const settled = settleConfig(config)
  const providersByOrigin = new Map<string, ResolvedProvider[]>()
  const startupProviders = checkAtStartup(settled, config)
  requireAdapterMethods(settled.adapter, startupProviders, settled.sessions.rows)
  settled.providerTokens?.checkAtStartup(settled)
  // With AUTH_URL pinned, the start-up resolution is the one every request needs.
  if (settled.pinnedUrl) providersByOrigin.set(settled.pinnedUrl.origin, startupProviders)

  function providersFor(origin: string): ResolvedProvider[] {
    let providers = providersByOrigin.get(origin)
    if (providers === undefined) {
      providers = resolveProviders(settled.appProviders, { baseUrl: origin, basePath: settled.basePath, env: settled.env, redirectProxyUrl: settled.redirectProxyUrl })
      if (providersByOrigin.size >= MAX_CACHED_ORIGINS) providersByOrigin.delete(providersByOrigin.keys().next().value!)
      providersByOrigin.set(origin, providers)
    }
    return providers
  }

  /** One request's context; cookies are secure (prefixed) exactly when the public origin is https, unless configured. */
  function contextFor(request: Request, url: URL, origin: string, providers: ResolvedProvider[]): RequestContext {
    // The settled config is the context's prototype, not copied into it: spreading its ~27 parts
    // cost about 1.5 to 3 µs a request on Node 20, this well under 0.2 µs, and every context has
    // the same shape. Nothing reads a context's own keys (no spread, no Object.keys), so the
    // settled parts are read through the prototype as if they were its own.
    const context = Object.create(settled) as RequestContext
    context.request = request
    context.url = url
    context.origin = origin
    context.baseUrl = `${origin}${settled.basePath}`
    context.secure = settled.useSecureCookies ?? origin.startsWith("https://")
    context.providers = providers
    return context
  }

  async function handler(incoming: Request): Promise<Response> {
    const url = webRequestUrl(incoming, "handler")
    const origin = publicOrigin(settled, incoming, url)
    if (origin === "untrusted") return untrustedHost(settled, url)
    if (origin === "invalid") return text("Invalid Host header", 400)
    if (settled.pinnedUrl && settled.diagnostics.development) {
      const loading = warnOnOriginMismatch(settled, incoming, url)
      if (loading) await loading
    }
    const path = url.pathname
    if (path !== settled.basePath && !path.startsWith(`${settled.basePath}/`)) {
      settled.logger.warn("ERR_BASE_PATH", { message: `a request outside basePath "${settled.basePath}" reached the handler; mount it there, or set basePath` })
      return json({ error: "NotFound" }, [], 404)
    }
    const [action = "", rawProviderId] = path.slice(settled.basePath.length + 1).split("/")
    const providerId = rawProviderId === undefined ? undefined : decodeSegment(rawProviderId)
    if (rawProviderId !== undefined && providerId === undefined) return json({ error: "NotFound" }, [], 404)
    // HEAD must not change anything: a link scanner's HEAD must not consume a magic link or a code.
    if (incoming.method === "HEAD" && (action === "callback" || action === PASSWORD_ACTION)) return json({ error: "MethodNotAllowed" }, [], 405, { allow: "GET, POST" })
    const buffered = await buffer(incoming)
    if (buffered === undefined) return text("Payload Too Large", 413)
    const { request, body } = buffered
    let context: RequestContext
    try {
      context = contextFor(request, url, origin, providersFor(origin))
    } catch (error) {
      settled.logger.error(error as Error)
      if (!(error instanceof InvalidProviderError)) throw error
      if (JSON_ROUTES.has(action)) return json({ error: "Configuration" }, [], 500)
      const hint = await developmentHint(settled.diagnostics.development, "Configuration")
      return html(errorPage("Configuration", `${origin}${settled.basePath}/signin`, settled.theme, hint), [], 500)
    }
    // Under `password/` the second segment is a route (`password/sign-up`), not a provider.
    const provider = providerId === undefined || action === PASSWORD_ACTION ? undefined : context.providers.find((candidate) => candidate.id === providerId)
    if (providerId !== undefined && provider === undefined && action !== PASSWORD_ACTION) {
      const known = context.providers.map(({ id }) => id)
      settled.logger.warn("ERR_UNKNOWN_PROVIDER", { message: `no provider with the id "${providerId.slice(0, 64)}"${didYouMean(providerId, known)} (configured: ${known.join(", ") || "none"})` })
      // A browser (sent back by a provider, or following a stale link) lands on the error page, as in
      // Auth.js; a POST (latchkey/client's signIn) gets JSON it can name.
      if (action === "callback" || request.method === "GET" || request.method === "HEAD") return redirect(errorUrl(context, "Configuration"))
      return json({ error: "UnknownProvider" }, [], 404)
    }
    // Rate limits (issue 27, rate-limit-host.ts): on the parsed route, before the route runs.
    // The body's fields are read once, by whichever asks first: the gate (for the identifier) or the route.
    let form: URLSearchParams | undefined | null = null
    const formOnce = () => (form === null ? (form = formOf(request, body)) : form)
    // The client is read from the request the runtime handed over (`incoming`), not the buffered copy:
    // a `trustedProxy` function may know the peer by that object (Bun's server.requestIP(request)).
    const gate = rateLimitGate(context, action, provider, formOnce, incoming)
    const limited = isPromise(gate) ? await gate : gate
    // A refusal (a Response) answers instead of the route; a function is called once the route has answered.
    if (typeof limited === "object") return limited
    let answer: Response
    try {
      if (request.method === "GET" || request.method === "HEAD") answer = await get(context, action, provider)
      else if (request.method === "POST") answer = await post(context, action, provider, formOnce())
      else answer = json({ error: "MethodNotAllowed" }, [], 405)
    } catch (error) {
      settled.logger.error(await loggableError(error))
      // Fetch clients of the JSON routes get JSON; browsers get the error page.
      answer = JSON_ROUTES.has(action) ? json({ error: "Configuration" }, [], 500) : redirect(errorUrl(context, "Configuration"))
    }
    const counted = limited?.()
    if (counted) await counted
    // A script (latchkey/client, Auth.js's client) cannot follow a redirect to the provider: it asks for JSON.
    return wantsReturnedRedirect(request) ? returnedRedirect(context, answer) : answer
  }

  // Not async: the store's promise is answered as it is, one layer fewer on the read every page makes.
  function auth(request: Request): Promise<Session | null> {
    try {
      const url = webRequestUrl(request, "auth")
      const resolved = publicOrigin(settled, request, url)
      if (resolved === "invalid") return Promise.resolve(null)
      // Without a trusted host the handler answers nothing; reading keeps to the request's own URL.
      const origin = resolved === "untrusted" ? url.origin : resolved
      // The one cookie the handler itself would read for this origin: never the plain name on https.
      return settled.sessions.read(contextFor(request, url, origin, settled.refresher ? startupProviders : []))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  async function getAccessToken(request: Request, providerId: string): Promise<string | null> {
    const url = webRequestUrl(request, "getAccessToken")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return null
    const engine = settled.providerTokens!
    const context = contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, startupProviders)
    return engine.accessTokenOf(context, providerId, await settled.sessions.lend(context))
  }

  async function authFromCookies(request: Request): Promise<CookieSession> {
    const url = webRequestUrl(request, "authFromCookies")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return { session: null, unverified: false }
    return settled.sessions.fromCookies(contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, []))
  }

  // The session callback's answer is what `auth` returns, so its type is S (Session without a callback).
  /** The user of a request's session, confirmed against its row, for the account API given a request. */
  async function confirmedUserId(request: Request): Promise<string | null> {
    const url = webRequestUrl(request, "auth")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return null
    return (await settled.sessions.confirmedUser(contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, [])))?.userId ?? null
  }

  const account = accountApi(settled, startupProviders, confirmedUserId)
  // Every spelling the limited routes count under: the default's, and each email or password provider's own.
  const spellings = startupProviders.map(spellingOf).filter((spelling) => spelling !== undefined)
  const clearLockout = async (identifier: string) => settled.rateLimiter?.clearLockout(identifier, spellings)
  const made: Auth<S> = { handler, auth: auth as Auth<S>["auth"], authFromCookies: authFromCookies as Auth<S>["authFromCookies"], basePath: settled.basePath, clearLockout, ...account }
  // Only where it works: a plug-in that refreshes (the type says the same, from `P`).
  const result = settled.refresher ? { ...made, getAccessToken } : made
  // Apps export `handler` and `auth` destructured: each carries the config for the CLI to find.
  brandWithConfig(config, result, handler, auth)
  return result as Auth<S> & AccessTokenApiOf<P>
}
