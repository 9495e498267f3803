/**
 * `latchkey` (root): `createAuth`, the Web-standard `Request → Response` handler that ties the
 * providers, the sign-in flow and the session token together, and `auth()` to read the session in
 * any route. Routes live under `basePath` (default `/auth`): providers, csrf, signin, callback,
 * session, signout, error and verify-request. Every state-changing POST is CSRF-checked, redirects
 * stay on the app's origin, and clients only ever see short error codes.
 *
 * @module
 */
import { InvalidProviderError, LatchkeyError } from "../errors.js"
import { requireAdapterMethods } from "../adapters/requirements.js"
import { didYouMean } from "../lib/did-you-mean.js"
import { resolveProviders } from "../providers/core/resolve.js"
import type { ResolvedProvider } from "../providers/types.js"
import type { ProviderTokensEngine } from "../provider-tokens/types.js"
import type { JWT, Session } from "../types.js"
import { accountApi, type AccountApi } from "./accounts.js"
import { nestsWithin, readBoundedBody } from "./body.js"
import { callbackRoute } from "./callback.js"
import { confirmedUser } from "./confirmed-session.js"
import { sessionFromCookies, type CookieSession } from "./cookie-session.js"
import { settleConfig, type AuthConfig, type RequestContext, type SettledConfig } from "./config.js"
import { errorUrl } from "./complete-sign-in.js"
import { csrfToken, verifyCsrf } from "./csrf.js"
import { clearDatabaseSessionCookies, currentDatabaseSession, freshDatabaseSessionFor, heldSession, readDatabaseSession } from "./database-session.js"
import { ERROR_MESSAGES } from "./errors.js"
import { loggableError } from "./loggable-error.js"
import { publicOrigin } from "./origin.js"
import { errorPage, signOutPage, verifyRequestPage } from "./pages/simple.js"
import { sameOrigin } from "./redirect.js"
import { returnedRedirect, wantsReturnedRedirect } from "./return-redirect.js"
import { html, json, redirect, text } from "./response.js"
import { applyJwtCallback, clearSessionCookies, currentSession, readFreshClaims, reissuedCookies, sessionFor } from "./session.js"
import { signInPageRoute, startProviderSignIn } from "./signin.js"
import { signOut } from "./signout.js"
import { checkAtStartup } from "./startup.js"
import { isWebAuthnRoute, webauthnRoute } from "./webauthn.js"
import { webRequestUrl } from "./web-request.js"

export type { AuthConfig, AuthCallbacks, AuthEvents, AuthPages, AuthTheme } from "./config.js"
export type { CookieOption, CookiesOptions, HandlerCookie } from "./cookies.js"
export type { AccountApi, AccountOwner } from "./accounts.js"
export type { CookieSession } from "./cookie-session.js"
export type { ClientErrorCode } from "./errors.js"
export type { PasskeyErrorCode, PasskeySummary } from "../webauthn/types.js"
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

/**
 * The form fields of a POST whose body was already read (and bounded) by the handler; undefined for
 * a JSON body that nests deeper than `MAX_JSON_DEPTH`. A body is JSON when its media type is
 * `application/json` (not when the type merely mentions it, as `text/plain; x=application/json`,
 * which a cross-site `no-cors` fetch may send: that is read as a form, and CSRF-checked like one).
 */
function formOf(request: Request, body: string): URLSearchParams | undefined {
  const type = request.headers.get("content-type") ?? ""
  if (type.split(";", 1)[0]!.trim().toLowerCase() === "application/json") {
    if (!nestsWithin(body)) return undefined
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      parsed = {}
    }
    const record = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
    // Strings as sent; an object (such as `data` for a session update) as its JSON.
    const fields = Object.entries(record).filter(([, value]) => value !== undefined && value !== null)
    return new URLSearchParams(fields.map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]))
  }
  return new URLSearchParams(body)
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

/** Routes that answer JSON, errors included: their callers are scripts, not pages. */
const JSON_ROUTES = new Set(["session", "csrf", "providers"])

/** The session and CSRF token are per user: no shared cache, and no browser cache, may keep them. */
const PRIVATE = { "cache-control": "private, no-cache, no-store", expires: "0", pragma: "no-cache" }

/** A path segment percent-decoded, or undefined when its encoding is malformed. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

async function sessionUpdate(context: RequestContext, form: URLSearchParams): Promise<Response> {
  if (context.sessionStrategy === "database") {
    // The row is the session: an update re-reads it (extending it when due) through the session callback.
    const found = await readDatabaseSession(context, true)
    const session = found && (await freshDatabaseSessionFor(context, found))
    return session ? json(session, found!.cookies, 200, PRIVATE) : json(null, found ? clearDatabaseSessionCookies(context) : [], 200, PRIVATE)
  }
  const read = await readFreshClaims(context)
  if (!read) return json(null)
  const { claims, tokens } = read
  const data = form.get("data")
  let submitted: unknown
  try {
    if (data !== null && !nestsWithin(data)) throw new SyntaxError("nested too deep")
    submitted = data === null ? undefined : JSON.parse(data)
  } catch {
    return json({ error: "InvalidData" }, [], 400)
  }
  const updated = await applyJwtCallback(context, { token: claims, trigger: "update", session: submitted })
  if (!updated) return json(null, clearSessionCookies(context))
  const exp = Math.floor(Date.now() / 1000) + context.sessionMaxAge
  const cookies = await reissuedCookies(context, updated, claims, tokens)
  return json(await sessionFor(context, { ...updated, exp }, tokens.claim), cookies)
}

async function post(context: RequestContext, action: string, provider: ResolvedProvider | undefined, body: string): Promise<Response> {
  const form = formOf(context.request, body)
  if (form === undefined) {
    // Anyone may send one, before any CSRF check: refused as bad input, not logged as an error.
    context.logger.debug("a JSON body nested too deep was refused", { code: "ERR_JSON_DEPTH" })
    return json({ error: "InvalidRequest" }, [], 400)
  }
  if (isWebAuthnRoute(action, provider)) return webauthnRoute(context, action, provider, form)
  // Credentials forms post to /callback/credentials in Auth.js; that POST is CSRF-checked like /signin.
  if (action === "callback" && provider && provider.type !== "credentials") return callbackRoute(context, provider)
  if (!(await verifyCsrf(context, form.get("csrfToken")))) {
    if (action === "session") return json({ error: "MissingCSRF" }, [], 403)
    return redirect(errorUrl(context, "MissingCSRF"))
  }
  if ((action === "signin" || action === "callback") && provider) return startProviderSignIn(context, provider, form)
  if (action === "signout") return signOut(context, form)
  if (action === "session") return sessionUpdate(context, form)
  return json({ error: "NotFound" }, [], 404)
}

/**
 * The error page's hint in development; none in production, where the page is for users. The
 * diagnostics here and below load on demand: only a failing or misconfigured request pays for them.
 */
async function developmentHint(development: boolean, code: string | null): Promise<string | undefined> {
  return development ? (await import("./error-page-hint.js")).errorPageHint(code, code !== null && Object.hasOwn(ERROR_MESSAGES, code)) : undefined
}

/** The 400 for an untrusted host, logged with what to set; in development the page says it too. */
async function untrustedHost(settled: SettledConfig, url: URL): Promise<Response> {
  const fix = (await import("./untrusted-host.js")).untrustedHostFix(url.origin, settled.basePath)
  settled.logger.error(new LatchkeyError(fix))
  return text(settled.diagnostics.development ? fix : "Untrusted host", 400)
}

async function get(context: RequestContext, action: string, provider: ResolvedProvider | undefined): Promise<Response> {
  if (isWebAuthnRoute(action, provider)) return webauthnRoute(context, action, provider)
  const { url } = context
  switch (action) {
    case "providers":
      return json(context.providers.map(({ id, name, type, signinUrl, callbackUrl }) => ({ id, name, type, signinUrl, callbackUrl })))
    case "csrf": {
      const { token, cookies } = await csrfToken(context)
      return json({ csrfToken: token }, cookies, 200, PRIVATE)
    }
    case "signin":
      return signInPageRoute(context)
    case "callback":
      return provider ? callbackRoute(context, provider) : redirect(errorUrl(context, "Configuration"))
    case "session": {
      const { session, cookies } = context.sessionStrategy === "database" ? await currentDatabaseSession(context) : await currentSession(context)
      return json(session, cookies, 200, PRIVATE)
    }
    case "signout": {
      if (context.config.pages?.signOut) return redirect(new URL(context.config.pages.signOut, context.origin).href)
      const { token, cookies } = await csrfToken(context)
      const callbackUrl = sameOrigin(url.searchParams.get("callbackUrl"), context.origin)
      return html(signOutPage(`${context.baseUrl}/signout`, token, callbackUrl, context.config.theme), cookies)
    }
    case "error":
      return html(errorPage(url.searchParams.get("error"), `${context.baseUrl}/signin`, context.config.theme, await developmentHint(context.diagnostics.development, url.searchParams.get("error"))), [], 400)
    case "verify-request":
      return html(verifyRequestPage(context.config.theme))
    default:
      return json({ error: "NotFound" }, [], 404)
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
  const startupProviders = checkAtStartup(settled)
  requireAdapterMethods(config.adapter, startupProviders)
  settled.providerTokens?.checkAtStartup(settled)
  // With AUTH_URL pinned, the start-up resolution is the one every request needs.
  if (settled.pinnedUrl) providersByOrigin.set(settled.pinnedUrl.origin, startupProviders)

  function providersFor(origin: string): ResolvedProvider[] {
    let providers = providersByOrigin.get(origin)
    if (providers === undefined) {
      providers = resolveProviders(config.providers, { baseUrl: origin, basePath: settled.basePath, env: settled.env, redirectProxyUrl: settled.redirectProxyUrl })
      if (providersByOrigin.size >= MAX_CACHED_ORIGINS) providersByOrigin.delete(providersByOrigin.keys().next().value!)
      providersByOrigin.set(origin, providers)
    }
    return providers
  }

  /** One request's context; cookies are secure (prefixed) exactly when the public origin is https, unless configured. */
  function contextFor(request: Request, url: URL, origin: string, providers: ResolvedProvider[]): RequestContext {
    const secure = config.useSecureCookies ?? origin.startsWith("https://")
    // The settled config is spread last: V8 (Node 20) builds `{ ...settled, more }` through a slow
    // path, about 20 µs a request, while this order costs well under 1 µs. TypeScript refuses a key
    // written both ways (TS2783), so nothing here can be overridden by accident.
    return { request, url, origin, baseUrl: `${origin}${settled.basePath}`, secure, providers, ...settled }
  }

  async function handler(incoming: Request): Promise<Response> {
    const url = webRequestUrl(incoming, "handler")
    const origin = publicOrigin(settled, incoming, url)
    if (origin === "untrusted") return untrustedHost(settled, url)
    if (origin === "invalid") return text("Invalid Host header", 400)
    if (settled.pinnedUrl && settled.diagnostics.development) (await import("./origin-mismatch.js")).warnOnOriginMismatch(settled, incoming, url)
    const path = url.pathname
    if (path !== settled.basePath && !path.startsWith(`${settled.basePath}/`)) {
      settled.logger.warn("ERR_BASE_PATH", { message: `a request outside basePath "${settled.basePath}" reached the handler; mount it there, or set basePath` })
      return json({ error: "NotFound" }, [], 404)
    }
    const [action = "", rawProviderId] = path.slice(settled.basePath.length + 1).split("/")
    const providerId = rawProviderId === undefined ? undefined : decodeSegment(rawProviderId)
    if (rawProviderId !== undefined && providerId === undefined) return json({ error: "NotFound" }, [], 404)
    // HEAD must not change anything: a link scanner's HEAD must not consume a magic link or a code.
    if (incoming.method === "HEAD" && action === "callback") return json({ error: "MethodNotAllowed" }, [], 405, { allow: "GET, POST" })
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
      return html(errorPage("Configuration", `${origin}${settled.basePath}/signin`, config.theme, hint), [], 500)
    }
    const provider = providerId === undefined ? undefined : context.providers.find((candidate) => candidate.id === providerId)
    if (providerId !== undefined && provider === undefined) {
      const known = context.providers.map(({ id }) => id)
      settled.logger.warn("ERR_UNKNOWN_PROVIDER", { message: `no provider with the id "${providerId.slice(0, 64)}"${didYouMean(providerId, known)} (configured: ${known.join(", ") || "none"})` })
      // A browser sent back by a provider lands on the error page; API clients get JSON.
      if (action === "callback") return redirect(errorUrl(context, "Configuration"))
      return json({ error: "UnknownProvider" }, [], 404)
    }
    let answer: Response
    try {
      if (request.method === "GET" || request.method === "HEAD") answer = await get(context, action, provider)
      else if (request.method === "POST") answer = await post(context, action, provider, body)
      else answer = json({ error: "MethodNotAllowed" }, [], 405)
    } catch (error) {
      settled.logger.error(await loggableError(error))
      // Fetch clients of the JSON routes get JSON; browsers get the error page.
      answer = JSON_ROUTES.has(action) ? json({ error: "Configuration" }, [], 500) : redirect(errorUrl(context, "Configuration"))
    }
    // A script (latchkey/client, Auth.js's client) cannot follow a redirect to the provider: it asks for JSON.
    return wantsReturnedRedirect(request) ? returnedRedirect(context, answer) : answer
  }

  async function auth(request: Request): Promise<Session | null> {
    const url = webRequestUrl(request, "auth")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return null
    // Without a trusted host the handler answers nothing; reading keeps to the request's own URL.
    const origin = resolved === "untrusted" ? url.origin : resolved
    // The one cookie the handler itself would read for this origin: never the plain name on https.
    const context = contextFor(request, url, origin, settled.refresher ? startupProviders : [])
    if (context.sessionStrategy === "database") {
      const found = await readDatabaseSession(context, false)
      return found ? freshDatabaseSessionFor(context, found) : null
    }
    const read = await readFreshClaims(context)
    if (!read) return null
    const shaped = await applyJwtCallback(context, { token: read.claims, trigger: "session" })
    return shaped ? sessionFor(context, shaped, read.tokens.claim) : null
  }

  async function getAccessToken(request: Request, providerId: string): Promise<string | null> {
    const url = webRequestUrl(request, "getAccessToken")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return null
    const engine = settled.providerTokens!
    const context = contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, startupProviders)
    if (context.sessionStrategy !== "database") return engine.accessTokenOf(context, providerId)
    const found = await readDatabaseSession(context, false)
    return engine.accessTokenOf(context, providerId, found && heldSession(context, found))
  }

  async function authFromCookies(request: Request): Promise<CookieSession> {
    const url = webRequestUrl(request, "authFromCookies")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return { session: null, unverified: false }
    return sessionFromCookies(contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, []))
  }

  // The session callback's answer is what `auth` returns, so its type is S (Session without a callback).
  /** The user of a request's session, confirmed against its row, for the account API given a request. */
  async function confirmedUserId(request: Request): Promise<string | null> {
    const url = webRequestUrl(request, "auth")
    const resolved = publicOrigin(settled, request, url)
    if (resolved === "invalid") return null
    return (await confirmedUser(contextFor(request, url, resolved === "untrusted" ? url.origin : resolved, [])))?.userId ?? null
  }

  const account = accountApi(settled, startupProviders, confirmedUserId)
  const made: Auth<S> = { handler, auth: auth as Auth<S>["auth"], authFromCookies: authFromCookies as Auth<S>["authFromCookies"], basePath: settled.basePath, ...account }
  // Only where it works: a plug-in that refreshes (the type says the same, from `P`).
  return (settled.refresher ? { ...made, getAccessToken } : made) as Auth<S> & AccessTokenApiOf<P>
}
