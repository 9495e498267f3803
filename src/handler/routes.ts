/**
 * The router: which route answers a request, by its action (the path segment after `basePath`),
 * its provider and its method. Every POST is CSRF-checked before a state-changing route runs,
 * except the passkey routes (which check their own, in `latchkey/webauthn`) and a provider's
 * callback (which the flow's checks guard). Sessions are answered by the session store, whatever
 * kind it is; the routes themselves live in their own files (signin.ts, callback.ts, signout.ts,
 * webauthn.ts, pages/).
 */
import { developmentHint } from "#development"
import { csrfToken } from "../adapters/browser-binding.js"
import type { ResolvedProvider } from "../providers/types.js"
import { hasJsonBody, nestsWithin } from "./body.js"
import { callbackRoute } from "./callback.js"
import { appPageWith, errorUrl, signInUrl } from "./complete-sign-in.js"
import type { RequestContext } from "./context.js"
import { verifyCsrf } from "./csrf.js"
import { errorPage, signOutPage, verifyRequestPage } from "./pages/simple.js"
import { sameOrigin } from "./redirect.js"
import { html, json, redirect } from "./response.js"
import { signInPageRoute, startProviderSignIn } from "./signin.js"
import { signOut } from "./signout.js"
import { isWebAuthnRoute, webauthnRoute } from "./webauthn.js"
import { isPasswordRoute, passwordRoute } from "./password.js"

/** Routes that answer JSON, errors included: their callers are scripts, not pages. */
export const JSON_ROUTES = new Set(["session", "csrf", "providers"])

/** The session and CSRF token are per user: no shared cache, and no browser cache, may keep them. */
const PRIVATE = { "cache-control": "private, no-cache, no-store", expires: "0", pragma: "no-cache" }

/**
 * The form fields of a POST whose body was already read (and bounded) by the handler; undefined for
 * a JSON body that nests deeper than `MAX_JSON_DEPTH`. A body is JSON when its media type is
 * `application/json` (not when the type merely mentions it, as `text/plain; x=application/json`,
 * which a cross-site `no-cors` fetch may send: that is read as a form, and CSRF-checked like one).
 */
export function formOf(request: Request, body: string): URLSearchParams | undefined {
  if (hasJsonBody(request)) {
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

/** The `data` a session update sends, parsed; throws for JSON that is malformed or nests too deep. */
function submittedData(form: URLSearchParams): unknown {
  const data = form.get("data")
  if (data !== null && !nestsWithin(data)) throw new SyntaxError("nested too deep")
  return data === null ? undefined : JSON.parse(data)
}

async function sessionUpdate(context: RequestContext, form: URLSearchParams): Promise<Response> {
  const answer = await context.sessions.update(context, () => submittedData(form))
  if (!answer) return json({ error: "InvalidData" }, [], 400)
  return json(answer.session, answer.cookies, 200, PRIVATE)
}

/** The error page's status, as Auth.js answers it: a fault of the app 500, a refusal 403, anything else 200. */
function errorStatus(code: string | null): number {
  return code === "Configuration" ? 500 : code === "AccessDenied" || code === "Verification" ? 403 : 200
}

/** A POST, with its body's fields as `formOf` read them (once per request: the rate-limit gate reads the same form). */
export async function post(context: RequestContext, action: string, provider: ResolvedProvider | undefined, form: URLSearchParams | undefined): Promise<Response> {
  if (form === undefined) {
    // Anyone may send one, before any CSRF check: refused as bad input, not logged as an error.
    context.logger.debug("a JSON body nested too deep was refused", { code: "ERR_JSON_DEPTH" })
    return json({ error: "InvalidRequest" }, [], 400)
  }
  if (isWebAuthnRoute(action, provider)) return webauthnRoute(context, action, provider, form)
  // The password routes check their own CSRF token (answering a script in JSON), as the passkey routes do.
  if (isPasswordRoute(action, provider, true)) return passwordRoute(context, action, provider, form)
  // A sign-in link is consumed by a GET only, its limit (`email-callback`) counting each try: a POST
  // with the link's query would be a second way to try codes. (Auth.js takes either.)
  if (action === "callback" && provider?.type === "email") return json({ error: "MethodNotAllowed" }, [], 405, { allow: "GET" })
  // Credentials forms post to /callback/credentials in Auth.js; that POST is CSRF-checked like /signin.
  if (action === "callback" && provider && provider.type !== "credentials") return callbackRoute(context, provider)
  if (!(await verifyCsrf(context, form.get("csrfToken")))) {
    if (action === "session") return json({ error: "MissingCSRF" }, [], 403)
    // A sign-in error, as Auth.js's: back on the sign-in page (the app's own reads `?error=`).
    return redirect(signInUrl(context, "MissingCSRF"))
  }
  if ((action === "signin" || action === "callback") && provider) return startProviderSignIn(context, provider, form)
  if (action === "signout") return signOut(context, form)
  if (action === "session") return sessionUpdate(context, form)
  return json({ error: "NotFound" }, [], 404)
}

export async function get(context: RequestContext, action: string, provider: ResolvedProvider | undefined): Promise<Response> {
  if (isWebAuthnRoute(action, provider)) return webauthnRoute(context, action, provider)
  if (isPasswordRoute(action, provider)) return passwordRoute(context, action, provider)
  const { url } = context
  switch (action) {
    case "providers":
      // Keyed by id, as Auth.js answers: its client's `signIn(id)` and custom pages read `providers[id]`.
      // fromEntries defines own properties, so an id such as "__proto__" stays a plain key.
      return json(Object.fromEntries(context.providers.map(({ id, name, type, signinUrl, callbackUrl }) => [id, { id, name, type, signinUrl, callbackUrl }])))
    case "csrf": {
      const { token, cookies } = await csrfToken(context)
      return json({ csrfToken: token }, cookies, 200, PRIVATE)
    }
    case "signin":
      return signInPageRoute(context)
    case "callback":
      return provider ? callbackRoute(context, provider) : redirect(errorUrl(context, "Configuration"))
    case "session": {
      const { session, cookies } = await context.sessions.current(context)
      return json(session, cookies, 200, PRIVATE)
    }
    case "signout": {
      if (context.pages.signOut) return redirect(new URL(context.pages.signOut, context.origin).href)
      const { token, cookies } = await csrfToken(context)
      const callbackUrl = sameOrigin(url.searchParams.get("callbackUrl"), context.origin)
      return html(signOutPage(`${context.baseUrl}/signout`, token, callbackUrl, context.theme), cookies)
    }
    case "error": {
      const code = url.searchParams.get("error")
      // An app's own error page gets the code, as Auth.js sends it there.
      if (context.pages.error) return redirect(errorUrl(context, code ?? ""))
      return html(errorPage(code, `${context.baseUrl}/signin`, context.theme, await developmentHint(context.diagnostics.development, code)), [], errorStatus(code))
    }
    case "verify-request": {
      // After a password route mailed a link, its own "check your email" (`?provider=<id>&kind=`).
      const mailer = context.providers.find((candidate) => candidate.id === url.searchParams.get("provider"))
      if (mailer?.type === "password") return passwordRoute(context, action, mailer)
      if (context.pages.verifyRequest) return redirect(appPageWith(context, context.pages.verifyRequest, url.searchParams).href)
      return html(verifyRequestPage(context.theme))
    }
    default:
      return json({ error: "NotFound" }, [], 404)
  }
}
