/**
 * The names and attributes of latchkey's cookies: Auth.js's names by default (with the
 * `__Secure-`/`__Host-` prefixes over https), or the app's own from the `cookies` option, and the
 * check that refuses a `cookies` option browsers would drop. Naming only: every cookie is written
 * through `latchkey/jwt`'s `setCookieHeaders`. The session store, the plug-ins and the handler all
 * name cookies here, so one cookie has one name everywhere. It sits beside the writer, below
 * everything that names a cookie.
 */
import { InvalidOptionError, type CheckName } from "../errors.js"
import { didYouMean } from "../lib/did-you-mean.js"
import type { SessionCookieOptions } from "./cookies.js"

/**
 * The cookies the handler writes, as Auth.js names them in its `cookies` option.
 *
 * @example
 * ```ts
 * import type { HandlerCookie } from "latchkey"
 * const renamed: HandlerCookie[] = ["sessionToken"] // the ones this app gives its own names
 * ```
 */
export type HandlerCookie = "sessionToken" | "callbackUrl" | "csrfToken" | "sessionCache" | "providerTokens"

/**
 * One cookie's name and attributes, overriding the defaults.
 *
 * @example
 * ```ts
 * import type { CookieOption } from "latchkey"
 * // a session cookie that no sibling subdomain can set (not readable by Auth.js under this name)
 * const hostOnly: CookieOption = { name: "__Host-authjs.session-token" }
 * ```
 */
export interface CookieOption {
  name?: string
  /** `httpOnly` is taken only as `true`, as Auth.js's example writes it: latchkey's cookies are always HttpOnly. */
  options?: Pick<SessionCookieOptions, "domain" | "path" | "sameSite" | "secure"> & { httpOnly?: true }
}

/**
 * The `cookies` option: names and attributes per cookie, as in Auth.js.
 *
 * @example
 * ```ts
 * import { createAuth, type CookiesOptions } from "latchkey"
 * const cookies: CookiesOptions = { sessionToken: { name: "__Host-authjs.session-token" } }
 * export const { handler, auth } = createAuth({ providers: [], cookies })
 * ```
 */
export type CookiesOptions = Partial<Record<HandlerCookie, CookieOption>> & Partial<Record<CheckCookie, { name: string }>>

/** The sign-in check cookies, as Auth.js names them in its `cookies` option; only their names can change. */
export type CheckCookie = "pkceCodeVerifier" | "state" | "nonce"

const CHECKS: Record<CheckCookie, CheckName> = { pkceCodeVerifier: "pkce", state: "state", nonce: "nonce" }

/** The check cookie names the `cookies` option gives, for the flow's `checkCookieNames`. */
export function checkCookieNames(cookies: CookiesOptions | undefined): Partial<Record<CheckName, string>> | undefined {
  if (!cookies) return undefined
  const names: Partial<Record<CheckName, string>> = {}
  for (const [key, check] of Object.entries(CHECKS) as [CheckCookie, CheckName][]) {
    const name = cookies[key]?.name
    if (name !== undefined) names[check] = name
  }
  return Object.keys(names).length > 0 ? names : undefined
}

/** What a cookie is read and written with. */
export interface CookieSpec {
  name: string
  options: SessionCookieOptions
}

/** What naming a cookie depends on: whether the origin is https, and the app's `cookies` option. */
export interface CookieContext {
  secure: boolean
  cookies: CookiesOptions | undefined
}

function defaultName(which: HandlerCookie, secure: boolean, sessionName?: string): string {
  // __Host- pins the CSRF cookie to this host and path /, so a sibling subdomain cannot toss it.
  if (which === "csrfToken") return secure ? "__Host-authjs.csrf-token" : "authjs.csrf-token"
  const prefix = secure ? "__Secure-" : ""
  if (which === "sessionCache") return `${prefix}latchkey.session-cache`
  // Sent wherever the session is, so it takes a __Host- session cookie's prefix too.
  if (which === "providerTokens") return `${secure && sessionName?.startsWith("__Host-") ? "__Host-" : prefix}latchkey.provider-tokens`
  // The callback-url cookie is sealed, so it does not take Auth.js's name: Auth.js asserts its own
  // is a plain URL and, after a rollback, would answer 500 to the browser holding latchkey's.
  return which === "sessionToken" ? `${prefix}authjs.session-token` : `${prefix}latchkey.callback-url`
}

/** The name and attributes of one of the handler's cookies, for this request's origin. */
export function cookieSpec(context: CookieContext, which: HandlerCookie, maxAge?: number): CookieSpec {
  const custom = context.cookies?.[which]
  // The provider token cookie goes wherever the session cookie goes: it starts from the session's attributes.
  const inherited = which === "providerTokens" ? context.cookies?.sessionToken?.options : undefined
  const options: SessionCookieOptions = { path: "/", httpOnly: true, sameSite: "lax", secure: context.secure, ...inherited, ...custom?.options }
  if (maxAge !== undefined) options.maxAge = maxAge
  return { name: custom?.name ?? defaultName(which, context.secure, context.cookies?.sessionToken?.name), options }
}

/** Only the name of one of the handler's cookies, for reading it: no attributes are built. */
export function cookieName(context: CookieContext, which: HandlerCookie): string {
  return context.cookies?.[which]?.name ?? defaultName(which, context.secure, context.cookies?.sessionToken?.name)
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * What each attribute an app may set must be. `httpOnly` is taken only as `true`: Auth.js's
 * documented example carries it, and latchkey's cookies are always HttpOnly.
 */
const ATTRIBUTES: Readonly<Record<string, [(value: unknown) => boolean, string]>> = {
  domain: [(value) => typeof value === "string", "a string"],
  path: [(value) => typeof value === "string" && value.startsWith("/"), 'a path starting with "/"'],
  sameSite: [(value) => value === "lax" || value === "strict" || value === "none", '"lax", "strict" or "none"'],
  secure: [(value) => typeof value === "boolean", "true or false"],
  httpOnly: [(value) => value === true, "true (latchkey's cookies are always HttpOnly)"],
}

/** Refuses `value` unless it is a record whose keys are all `known`, naming the nearest one. */
function checkRecord(option: string, value: unknown, known: string[]): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InvalidOptionError(option, `${option} must be an object.`)
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue
    const path = `${option}.${key}`
    // Auth.js passes these on; latchkey sets every cookie's lifetime itself.
    const why = key === "maxAge" || key === "expires" ? ": latchkey sets each cookie's lifetime (the session's is session.maxAge)" : didYouMean(key, known)
    throw new InvalidOptionError(path, `${path} is not an option of a cookie${why || "."}`)
  }
}

/**
 * Refuses a `cookies` option that is not what latchkey would do as written: a key or attribute it
 * does not take (a typo was ignored in silence), a value the cookie writer would not take as
 * meant, and what browsers would silently drop: a name that is not a cookie name, a `__Host-`
 * cookie with a domain or a path other than `/`, a prefixed cookie without Secure, SameSite=None
 * without Secure.
 */
export function checkCookiesOption(cookies: CookiesOptions | undefined): void {
  for (const [which, custom] of Object.entries(cookies ?? {}) as [string, unknown][]) {
    const option = `cookies.${which}`
    const isCheck = Object.hasOwn(CHECKS, which)
    if (!isCheck && !["sessionToken", "callbackUrl", "csrfToken", "sessionCache", "providerTokens"].includes(which)) throw new InvalidOptionError(option, `${option} is not a cookie latchkey writes.`)
    if (custom === undefined) continue
    checkRecord(option, custom, ["name", "options"])
    const entry = custom as CookieOption
    if (isCheck && entry.options !== undefined) throw new InvalidOptionError(option, `${option}: only the name of a check cookie can change; its attributes are the flow's.`)
    if (entry.options !== undefined) {
      checkRecord(`${option}.options`, entry.options, Object.keys(ATTRIBUTES))
      for (const [key, value] of Object.entries(entry.options)) {
        const [valid, rule] = ATTRIBUTES[key]!
        if (value !== undefined && !valid(value)) throw new InvalidOptionError(`${option}.options.${key}`, `${option}.options.${key} must be ${rule}.`)
      }
    }
    const { name } = entry
    // The provider token cookie's attributes are the session cookie's, then its own.
    const options = which === "providerTokens" ? { ...cookies?.sessionToken?.options, ...entry.options } : entry.options
    if (name !== undefined && (typeof name !== "string" || !COOKIE_NAME.test(name))) throw new InvalidOptionError(option, `${option}.name must be a cookie name.`)
    // Over https the CSRF cookie, and the token cookie next to a __Host- session, default to __Host- names too.
    const httpsName = name ?? (isCheck ? undefined : defaultName(which as HandlerCookie, true, cookies?.sessionToken?.name))
    if (httpsName?.startsWith("__Host-") && (options?.domain !== undefined || (options?.path ?? "/") !== "/")) {
      const fix = name === undefined ? ` (over https its default name is ${httpsName}: give it a name without __Host- to set these)` : ""
      throw new InvalidOptionError(option, `${option}: a __Host- cookie must have no domain and the path /${fix}.`)
    }
    if ((name?.startsWith("__Host-") || name?.startsWith("__Secure-")) && options?.secure === false) {
      throw new InvalidOptionError(option, `${option}: a __Host- or __Secure- cookie must be Secure.`)
    }
    if (options?.sameSite === "none" && options.secure === false) throw new InvalidOptionError(option, `${option}: SameSite=None needs Secure.`)
  }
}
