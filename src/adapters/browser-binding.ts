/**
 * The CSRF cookie, and the browser binding it gives. The cookie holds a random token with a hash
 * that binds it to the secret (the handler's double-submit check compares a POST's token with it:
 * handler/csrf.ts). Over https the cookie is `__Host-`, so no sibling subdomain can set it, which
 * makes its token the one value that identifies this browser to the app: a session made here
 * carries the token's hash (the binding), and a session cookie a sibling planted, made in another
 * browser, does not match. Both session kinds bind through this file; it lives below the handler
 * because the session store needs it.
 */
import { requestCookie, requestCookies, setCookieHeaders } from "../jwt/cookies.js"
import { encodeBase64url } from "../lib/base64url.js"
import { cookieName, cookieSpec, type CookieContext } from "../jwt/cookie-names.js"
import { sha256, sha256Hex } from "../jwt/digest.js"
import { constantTimeEqual } from "../lib/digest.js"

/** What reading this browser's CSRF cookie needs: the request, its cookie names, and the secret. */
export type BindingContext = CookieContext & { request: Request; secret: string[] }

/**
 * The request's valid CSRF token, if its cookie carries one made with this secret. The hash is
 * read in hex (Auth.js's format, and latchkey's) or base64url (latchkey 0.1), so a CSRF cookie
 * carries over a move in either direction, and a form already open keeps working. latchkey hashes
 * with the newest secret alone, so a cookie outlives the removal of an old one; Auth.js hashes with
 * its whole list joined by commas, which is read too while the list is the same.
 */
export async function cookieToken(context: BindingContext): Promise<string | undefined> {
  const value = requestCookies(context.request)[cookieSpec(context, "csrfToken").name]
  const [token, hash, ...rest] = value?.split("|") ?? []
  if (!token || !hash || rest.length > 0) return undefined
  const encode = hash.length === 64 ? sha256Hex : sha256
  for (const candidate of context.secret) if (constantTimeEqual(hash, await encode(`${token}${candidate}`))) return token
  if (context.secret.length > 1 && constantTimeEqual(hash, await encode(`${token}${context.secret.join(",")}`))) return token
  return undefined
}

/** How many CSRF cookies' bindings the process remembers (oldest forgotten first). */
export const MAX_REMEMBERED_BINDINGS = 10_000

/** CSRF cookie value → the secret list it was checked with, and the binding it gives (null: none). */
const bindings = new Map<string, { secret: readonly string[]; binding: string | null }>()

/**
 * The browser binding this request's CSRF cookie gives: the hash of its valid token (what a
 * session made in this browser carries), or undefined without a valid cookie. Every session read
 * asks, and the two digests it takes cost more than decoding the session, so each cookie's answer
 * is remembered, for the secret list it was checked with, in a bounded map: a browser sends the
 * same cookie on each request.
 */
export function browserBinding(context: BindingContext): string | undefined | Promise<string | undefined> {
  const value = requestCookie(context.request, cookieName(context, "csrfToken"))
  if (!value) return undefined
  const known = bindings.get(value)
  // A remembered answer comes back without a promise: every session read passes here.
  if (known?.secret === context.secret) return known.binding ?? undefined
  return rememberBinding(context, value, known !== undefined)
}

/** Checks a CSRF cookie not remembered for this secret list, and remembers its binding (null: none). */
async function rememberBinding(context: BindingContext, value: string, replacing: boolean): Promise<string | undefined> {
  const token = await cookieToken(context)
  const binding = token === undefined ? null : await sha256(token)
  if (!replacing && bindings.size >= MAX_REMEMBERED_BINDINGS) bindings.delete(bindings.keys().next().value!)
  bindings.set(value, { secret: context.secret, binding })
  return binding ?? undefined
}

/** How many bindings are remembered (for the resource-bound test). */
export function rememberedBindings(): number {
  return bindings.size
}

/**
 * The CSRF token for this request, and the cookie to set: when a new token was made, or when
 * `keepFor` asks for the cookie to be kept that many seconds (a sign-in keeps it as long as the
 * session it binds).
 */
export async function csrfToken(context: BindingContext, keepFor?: number): Promise<{ token: string; cookies: string[] }> {
  const existing = await cookieToken(context)
  if (existing && keepFor === undefined) return { token: existing, cookies: [] }
  const token = existing ?? encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const { name, options } = cookieSpec(context, "csrfToken", keepFor)
  const value = `${token}|${await sha256Hex(`${token}${context.secret[0]}`)}`
  return { token, cookies: setCookieHeaders({ name, value, options }) }
}

/**
 * The binding for a session signed in now, and the CSRF cookie to set so that the token it hashes
 * lives as long as the session (the CSRF cookie is made here when the request has none, as after a
 * cross-site `form_post` callback).
 */
export async function bindToBrowser(context: BindingContext, sessionMaxAge: number): Promise<{ browser: string; cookies: string[] }> {
  const { token, cookies } = await csrfToken(context, sessionMaxAge)
  return { browser: await sha256(token), cookies }
}

/** Whether `bound` (a session's binding) is this browser's `binding`. */
export function sameBinding(bound: string, binding: string | undefined): boolean {
  return binding !== undefined && constantTimeEqual(bound, binding)
}

/** A lasting change asked by a session made in another browser: logged, and answered as no session. */
export function notThisBrowsers(context: { logger: { warn(code: string, metadata?: unknown): void } }): null {
  context.logger.warn("ERR_SESSION_NOT_BOUND", { message: "the session was not made in this browser; it counts as signed out for this change" })
  return null
}
