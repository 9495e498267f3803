/**
 * Reading and clearing the cookies a session is made of: the session token (joined from its
 * chunks) under this origin's name, and the provider token cookie that travels beside a JWT
 * session. Names come from lib/cookie-names.ts; every write goes through `latchkey/jwt`'s writer.
 */
import { readTokenCookie, setCookieHeaders } from "../jwt/cookies.js"
import { cookieName, cookieSpec, type CookieContext } from "../jwt/cookie-names.js"

/** A cookie context for the request being answered. */
export type RequestCookieContext = CookieContext & { request: Request }

/** The token the request carries under `name` (joined from chunks), or undefined. A bad chunk set is no token. */
export function tokenCookieOf(request: Request, name: string): string | undefined {
  try {
    return readTokenCookie(request.headers.get("cookie"), name)
  } catch {
    return undefined
  }
}

/** The session token the request carries under this origin's session cookie name. */
export function requestSessionToken(context: RequestCookieContext): string | undefined {
  return tokenCookieOf(context.request, cookieName(context, "sessionToken"))
}

/** Set-Cookie values that remove the provider token cookie, when the request carries one (else none: nothing to clear). */
export function clearProviderTokenCookie(context: RequestCookieContext): string[] {
  const { name, options } = cookieSpec(context, "providerTokens")
  if (!context.request.headers.get("cookie")?.includes(name)) return []
  return setCookieHeaders({ name, value: null, options, request: context.request })
}
