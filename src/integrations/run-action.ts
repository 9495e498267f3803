/**
 * Sign-in and sign-out for framework actions (Next.js server actions, SvelteKit form actions),
 * run through the handler's own routes in-process, as a browser form would: fetch a CSRF token
 * (`GET /csrf`, which sets the double-submit cookie when the browser has none), then post it back
 * with the form. The public handler keeps its CSRF check and has no bypass for anyone to reach;
 * the framework itself guards its actions against cross-site posts (an Origin check).
 *
 * The outcome is a value, {@link ActionResult}, with the `Set-Cookie` values the framework's store
 * must write.
 */
import { parseCookie } from "cookie"
import { InvalidOptionError } from "../errors.js"
import type { Auth } from "../handler/index.js"
import { passwordAnswer, type PasswordAnswer } from "../lib/password-answer.js"
import { cookieToSet } from "./set-cookie.js"

/**
 * What an action's `signIn` or `signOut` answers. `url` is where to send the browser: the
 * provider's authorization page, the page to land on, or the error page. `error` is a short client
 * error code such as `CredentialsSignin` or `AccessDenied`, and `code` the `authorize` refusal's
 * own code.
 *
 * Exported from `latchkey/next`.
 *
 * @example
 * ```ts
 * import { redirect } from "next/navigation"
 * import type { ActionResult } from "latchkey/next"
 * import { signIn } from "@/auth"
 * const result: ActionResult = await signIn("github", { redirectTo: "/dashboard" })
 * if (result.ok) redirect(result.url) // outside any try/catch
 * ```
 */
export type ActionResult = { ok: true; url: string; error: undefined; code: undefined } | { ok: false; url: string | null; error: string; code: string | undefined }

/** Where the error and sign-in pages are, so an answer that lands there is read as a refusal. */
export interface ErrorPages {
  basePath: string
  signIn?: string
  error?: string
}

/** The request an action runs for: its URL (the origin to start from), headers and `cookie` header. */
export interface ActionRequest {
  url: URL
  headers: Headers
  cookie: string
}

/**
 * Headers not carried over: those describing the body they came with (a request built here
 * carries its own body, or none), the cookies (set from the jar), and the one that would make the
 * handler answer its redirects as JSON.
 */
const DROPPED_HEADERS = ["content-length", "content-type", "transfer-encoding", "cookie", "x-auth-return-redirect"]

/**
 * A request to `path` on the action's origin, with its headers (less the body's), `cookie`, and a
 * form; `asScript` asks the handler to answer as it answers a script (JSON, redirects included).
 */
export function requestFor(action: Omit<ActionRequest, "cookie">, cookie: string, path: string, form?: URLSearchParams, asScript = false): Request {
  const headers = new Headers(action.headers)
  for (const name of DROPPED_HEADERS) headers.delete(name)
  if (cookie) headers.set("cookie", cookie)
  if (form) headers.set("content-type", "application/x-www-form-urlencoded")
  if (asScript) headers.set("x-auth-return-redirect", "1")
  return new Request(new URL(path, action.url), { method: form ? "POST" : "GET", headers, body: form?.toString() })
}

/** The cookies of one action's run: the browser's, then whatever each handler answer set. */
class CookieJar {
  private readonly values = new Map<string, string>()
  readonly written: string[] = []

  constructor(header: string) {
    for (const [name, value] of Object.entries(parseCookie(header))) if (value !== undefined) this.values.set(name, value)
  }

  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      this.written.push(header)
      const cookie = cookieToSet(header)
      const expired = cookie.maxAge !== undefined ? cookie.maxAge <= 0 : cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()
      if (expired) this.values.delete(cookie.name)
      else this.values.set(cookie.name, cookie.value)
    }
  }

  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ")
  }
}

/** Whether `url` is one of the app's own pages that show a refusal: under basePath, or a custom sign-in or error page. Never another origin's. */
function isRefusalPage(url: URL, base: URL, pages: ErrorPages): boolean {
  if (url.origin !== base.origin) return false
  if (url.pathname.startsWith(`${pages.basePath}/`)) return true
  return [pages.signIn, pages.error].some((page) => page !== undefined && new URL(page, url).pathname === url.pathname)
}

/** The client code of a refusal the handler answers as a page or plain text, by status. */
const REFUSALS: Record<number, string> = { 400: "UntrustedHost", 403: "CaptchaFailed", 429: "RateLimited" }

/** The handler's answer as an outcome: a redirect is success unless it lands on an error page with `error`. */
async function outcomeOf(response: Response, base: URL, pages: ErrorPages): Promise<ActionResult> {
  const location = response.headers.get("location")
  if (response.status >= 300 && response.status < 400 && location) {
    const url = new URL(location, base)
    const error = isRefusalPage(url, base, pages) ? url.searchParams.get("error") : null
    if (error) return { ok: false, url: url.href, error, code: url.searchParams.get("code") ?? undefined }
    return { ok: true, url: url.href, error: undefined, code: undefined }
  }
  const body: unknown = await response.json().catch(() => null)
  const named = typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : undefined
  // The handler's refusals before routing (an untrusted or malformed host) are plain text; a rate
  // limit (429) or a failed captcha (403) answers a form post with a page (rate-limit-host.ts).
  return { ok: false, url: null, error: named ?? REFUSALS[response.status] ?? "Configuration", code: undefined }
}

/**
 * Runs one CSRF-protected POST to the handler (answered as a script's when `asScript`); answers
 * the handler's last response, read by `read`, and every `Set-Cookie` value to write.
 */
async function post<R>(auth: Pick<Auth, "handler">, basePath: string, action: ActionRequest, path: string, fields: Record<string, string>, asScript: boolean, read: (response: Response) => Promise<R>): Promise<{ result: R; setCookies: string[] }> {
  const jar = new CookieJar(action.cookie)
  const csrf = await auth.handler(requestFor(action, jar.header(), `${basePath}/csrf`))
  jar.take(csrf)
  const body: unknown = await csrf.clone().json().catch(() => null)
  const token = typeof body === "object" && body !== null && "csrfToken" in body && typeof body.csrfToken === "string" ? body.csrfToken : undefined
  if (!csrf.ok || token === undefined) return { result: await read(csrf), setCookies: jar.written }
  const response = await auth.handler(requestFor(action, jar.header(), path, new URLSearchParams({ ...fields, csrfToken: token }), asScript))
  jar.take(response)
  return { result: await read(response), setCookies: jar.written }
}

/** Runs one CSRF-protected POST to the handler as a form would; answers the outcome and every `Set-Cookie` value to write. */
export function runAction(auth: Pick<Auth, "handler">, pages: ErrorPages, action: ActionRequest, path: string, fields: Record<string, string>): Promise<{ result: ActionResult; setCookies: string[] }> {
  return post(auth, pages.basePath, action, path, fields, false, (response) => outcomeOf(response, action.url, pages))
}

/**
 * Runs one POST to a password route (`password/sign-up`, `password/change`, …) as the browser
 * client does, answered as JSON: its refusal code, `reason` and `retryAfter` come back as they are,
 * where a form post would fold them into the query of a page the action could not tell from
 * the app's own.
 */
export function runPasswordAction(auth: Pick<Auth, "handler">, basePath: string, action: ActionRequest, route: string, fields: Record<string, string>): Promise<{ result: PasswordAnswer; setCookies: string[] }> {
  return post(auth, basePath, action, `${basePath}/${route}`, fields, true, async (response) => {
    // A refusal before the route (a rate limit on a form post, an untrusted host) may be a page or plain text.
    const body: unknown = await response.json().catch(() => undefined)
    const answer = passwordAnswer(response.status, body)
    return answer.ok || answer.error !== "InvalidResponse" ? answer : { ok: false, error: REFUSALS[response.status] ?? "InvalidResponse", status: response.status }
  })
}

/**
 * The fields of a password action, from an options record or a submitted form: strings only
 * (`true` as "true"; `false`, null and undefined left out), the framework's own fields
 * (`$ACTION_…`) left out, and `redirectTo` sent as the handler's `callbackUrl`.
 */
export function passwordFields(source: Record<string, unknown> | FormData, redirectTo: string | undefined): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of submittedEntries(source)) {
    if (name === "redirectTo") continue
    if (typeof value === "string" || typeof value === "number") fields[name] = String(value)
    else if (value === true) fields[name] = "true"
  }
  const destination = redirectTo ?? (source instanceof FormData ? source.get("redirectTo") : undefined)
  return typeof destination === "string" ? { ...fields, callbackUrl: destination } : fields
}

/**
 * A sign-in's form fields from an options record or a submitted form: strings only, the
 * framework's own fields (`$ACTION_…`, SvelteKit's `/?…`) and `providerId` left out, and
 * `redirectTo` (Auth.js v5's name, and latchkey's everywhere) sent as the handler's `callbackUrl`.
 * A submitted `callbackUrl` is dropped, so `redirectTo` alone says where to go; in an options
 * record it is refused (see {@link refuseCallbackUrl}).
 */
export function signInFields(source: Record<string, unknown> | FormData, fallbackRedirect: string | undefined): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of submittedEntries(source)) if (typeof value === "string" && name !== "providerId") fields[name] = value
  const { redirectTo = fallbackRedirect, ...rest } = fields
  return redirectTo === undefined ? rest : { ...rest, callbackUrl: redirectTo }
}

/**
 * The entries of an options record or a submitted form, less the framework's own fields
 * (`$ACTION_…`) and `callbackUrl`: submitted, it is dropped; in an options record, refused
 * ({@link refuseCallbackUrl}).
 */
function submittedEntries(source: Record<string, unknown> | FormData): [string, unknown][] {
  if (!(source instanceof FormData)) refuseCallbackUrl(source)
  const entries: [string, unknown][] = source instanceof FormData ? [...source.entries()] : Object.entries(source)
  return entries.filter(([name]) => !name.startsWith("$ACTION") && name !== "callbackUrl")
}

/**
 * An options record that says `callbackUrl` (next-auth v4's name) is the app's mistake: refused by
 * name, rather than sent on as a form field or dropped without a word.
 */
export function refuseCallbackUrl(options: object): void {
  if ((options as { callbackUrl?: unknown }).callbackUrl !== undefined) {
    throw new InvalidOptionError("callbackUrl", 'the callbackUrl option is named redirectTo, as in Auth.js v5: signIn(provider, { redirectTo: "/dashboard" }), signOut({ redirectTo: "/" }).')
  }
}

/** A path on the app, from a `Referer` header when it is one: where an action without `redirectTo` returns to. */
export function refererPath(headers: Headers): string | undefined {
  const referer = headers.get("referer")
  if (!referer || !URL.canParse(referer)) return undefined
  const url = new URL(referer)
  return `${url.pathname}${url.search}`
}
