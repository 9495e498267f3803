/**
 * What the handler lends the rate-limit plug-in (`rate-limits/limiter.ts`), and what it does with
 * the answer. The route is named from the request the router already parsed (the action and the
 * resolved provider), never from the raw path: `/signin//credentials`, `%2F` and a trailing slash
 * are the route they resolve to, or no route at all. A refusal is 429 with `Retry-After` (403 for a
 * failed captcha): JSON for scripts, the error page's message for browsers. The session route is
 * never limited, and `auth()` never comes here.
 */
import type { ResolvedProvider } from "../providers/types.js"
import { clientKeyOfRequest } from "../rate-limits/client-ip.js"
import { isPromise, type IdentifierNormalizer, type RateLimitHost, type RateLimitVerdict } from "../rate-limits/limiter.js"
import type { RateLimitRoute } from "../rate-limits/types.js"
import { fireEvent } from "../adapters/events.js"
import type { RequestContext } from "./context.js"
import { errorPage } from "./pages/simple.js"
import { html, json } from "./response.js"
import { wantsReturnedRedirect } from "./return-redirect.js"
import { PASSWORD_ACTION, passwordProviderOf, passwordSubRoute } from "./password.js"

/** The limited route of each password POST under `password/`. */
const PASSWORD_ROUTES: Record<string, RateLimitRoute> = {
  "sign-up": "password-sign-up",
  forgot: "password-forgot",
  reset: "password-reset",
  change: "password-change",
  "change-email": "password-change",
  // The verification link confirmed with the account's password, from another browser: a password check like sign-in's.
  "verify-email": "password-sign-in",
}

/** The limited route a request is, from the router's parse; "all" for any other auth route, undefined for the session. */
export function limitedRoute(method: string, action: string, provider: ResolvedProvider | undefined, subRoute?: string): RateLimitRoute | undefined {
  if (action === "session") return undefined
  const type = provider?.type
  // The sign-in page's form posts to callback/<id>, latchkey/client's signIn to signin/<id>: one limit.
  if (method === "POST" && (action === "callback" || action === "signin") && type === "password") return "password-sign-in"
  if (method === "POST" && action === PASSWORD_ACTION && subRoute !== undefined && subRoute in PASSWORD_ROUTES) return PASSWORD_ROUTES[subRoute]
  if (type === "webauthn" && (action === "webauthn-options" || action === "callback")) return "passkey"
  if (method === "POST" && type === "credentials" && (action === "signin" || action === "callback")) return "credentials"
  if (method === "POST" && type === "email" && action === "signin") return "email-send"
  // Every method: a POST is refused by the route (routes.ts), and must not be a way around the count meanwhile.
  if (type === "email" && action === "callback") return "email-callback"
  return "all"
}

/**
 * The field naming the account. A credentials provider's own fields decide: `email`, else `username`,
 * else its first field that is not a secret; a field the provider does not declare is never read,
 * so a decoy `email` added to a form cannot move the count to another account. Email and passkey
 * routes name the account in `email` (`addressField`); a change of address's send budget, in `newEmail`.
 */
function identifierOf(context: RequestContext, provider: ResolvedProvider | undefined, form: URLSearchParams | undefined, addressField: string): string | null | undefined {
  const source = form ?? context.url.searchParams
  if (provider?.type !== "credentials") return source.get(addressField)
  let field = identifierFields.get(provider.credentials)
  if (field === undefined) identifierFields.set(provider.credentials, (field = identifierFieldOf(Object.keys(provider.credentials))))
  return field === null ? undefined : source.get(field)
}

/** The routes that sign in (or mail) the account as their provider spells the address. */
const PROVIDER_SPELLED = new Set<RateLimitRoute>(["email-send", "email-callback", "password-sign-in", "password-sign-up", "password-forgot", "password-reset", "password-change-email"])

/**
 * The `normalizeIdentifier` of the provider whose account the route acts on, so the limit counts
 * that account and not one spelling of it: the email provider's on its routes, the password
 * provider's on the password routes (`password/*` names no provider: the app has at most one).
 * Undefined on every other route, a credentials sign-in first among them, at the cost of one lookup.
 */
function normalizerOf(context: RequestContext, route: RateLimitRoute, provider: ResolvedProvider | undefined): IdentifierNormalizer | undefined {
  return PROVIDER_SPELLED.has(route) ? spellingOf(provider ?? passwordProviderOf(context.providers)) : undefined
}

/** A provider's own `normalizeIdentifier`, when it is an email or password provider that has one. */
export function spellingOf(provider: ResolvedProvider | undefined): IdentifierNormalizer | undefined {
  return provider?.type === "email" || provider?.type === "password" ? provider.normalizeIdentifier : undefined
}

/** Each credentials provider's identifier field (null: none), found once: every attempt asks. */
const identifierFields = new WeakMap<object, string | null>()

function identifierFieldOf(declared: string[]): string | null {
  return ["email", "username"].find((name) => declared.includes(name)) ?? declared.find((name) => !/password|secret|code|otp/i.test(name)) ?? null
}

/** The routes whose every answer is JSON (the router's JSON_ROUTES), and the passkey options a script fetches. */
const JSON_ACTIONS = new Set(["session", "csrf", "providers", "webauthn-options"])

/** Scripts (the client, passkey fetches, JSON routes) get JSON; a browser's form post gets a page. */
function wantsJson(request: Request, action: string): boolean {
  const type = `${request.headers.get("accept") ?? ""} ${request.headers.get("content-type") ?? ""}`
  return JSON_ACTIONS.has(action) || wantsReturnedRedirect(request) || type.includes("application/json")
}

function refusal(context: RequestContext, action: string, error: "RateLimited" | "CaptchaFailed", retryAfter: number): Response {
  const status = error === "RateLimited" ? 429 : 403
  const headers: Record<string, string> = error === "RateLimited" ? { "retry-after": String(retryAfter) } : {}
  if (wantsJson(context.request, action)) return json(error === "RateLimited" ? { error, retryAfter } : { error }, [], status, headers)
  const page = html(errorPage(error, `${context.baseUrl}/signin`, context.theme), [], status)
  for (const [name, value] of Object.entries(headers)) page.headers.set(name, value)
  return page
}

/** What the gate answers: a refusal to send instead of the route, what to call once the route has answered, or nothing. */
export type RateLimitGate = Response | (() => void | Promise<void>) | undefined

/**
 * Checks one request against the limits: a refusal to answer instead of the route, or what to
 * call once the route has answered (a sign-in that succeeded clears its identifier's count). Undefined
 * when nothing is limited. A promise only when the limiter's answer is one (a Redis store, a
 * captcha, WebCrypto's hash): with the memory store on Node, a passing attempt is checked without
 * a microtask turn.
 */
export function rateLimitGate(context: RequestContext, action: string, provider: ResolvedProvider | undefined, formOf: () => URLSearchParams | undefined, incoming: Request): RateLimitGate | Promise<RateLimitGate> {
  const limiter = context.rateLimiter
  const route = limiter && limitedRoute(context.request.method, action, provider, action === PASSWORD_ACTION ? passwordSubRoute(context) : undefined)
  if (!limiter || route === undefined) return undefined
  // A change of password or address names no account in its form: the account is the session's.
  if (route === "password-change") {
    context.gateUser = context.sessions.confirmedUser(context)
    return context.gateUser.then(async (confirmed) => {
      const gate = await checkRoute(context, action, provider, formOf, incoming, route, confirmed?.userId ?? null)
      // A change of address mails the new one too: its own send budget, keyed on that address.
      if (gate instanceof Response || passwordSubRoute(context) !== "change-email") return gate
      return checkRoute(context, action, provider, formOf, incoming, "password-change-email", undefined, "newEmail")
    })
  }
  return checkRoute(context, action, provider, formOf, incoming, route, undefined)
}

/** The limiter's verdict on one route, keyed on the form's identifier, or on `sessionUser` (null: nobody) when given. */
function checkRoute(
  context: RequestContext,
  action: string,
  provider: ResolvedProvider | undefined,
  formOf: () => URLSearchParams | undefined,
  incoming: Request,
  route: RateLimitRoute,
  sessionUser: string | null | undefined,
  addressField = "email"
): RateLimitGate | Promise<RateLimitGate> {
  const limiter = context.rateLimiter!
  let form: URLSearchParams | undefined
  const readForm = () => (form ??= context.request.method === "POST" ? formOf() : undefined)
  const host: RateLimitHost = {
    request: incoming,
    clientKey: clientKeyOfRequest(incoming, context.trustedProxy),
    identifier: () => (sessionUser === undefined ? identifierOf(context, provider, readForm(), addressField) : sessionUser === null ? null : `user:${String(sessionUser)}`),
    normalizeIdentifier: normalizerOf(context, route, provider),
    field: (name) => readForm()?.get(name),
    report: (event) => fireEvent(context, "rateLimited", event),
  }
  const verdict = limiter.check(host, route)
  return isPromise(verdict) ? verdict.then((settled) => gateOf(context, action, route, settled)) : gateOf(context, action, route, verdict)
}

function gateOf(context: RequestContext, action: string, route: RateLimitRoute, verdict: RateLimitVerdict): RateLimitGate {
  if (verdict.refused) return refusal(context, action, verdict.refused, verdict.retryAfter)
  // Only a sign-in clears its count: a sent link is not proof of anything. What proves one is a
  // session issued for this request (completeSignIn), not the shape of the answer: a redirect
  // whose destination says `error`, or a script's 200, would otherwise have to be told apart.
  if (route !== "credentials" && route !== "email-callback" && route !== "password-sign-in") return undefined
  return () => (context.signedIn ? verdict.succeeded() : undefined)
}
