/**
 * The handler's cookies: names (with the `__Secure-`/`__Host-` prefixes over https) and the one
 * writer they all go through, `latchkey/jwt`'s `setCookieHeaders`.
 */
import { readChunkedCookie, requestCookies, setCookieHeaders, type SessionCookieOptions } from "../jwt/cookies.js"

/** The names of the handler's cookies for a secure or plain origin. */
export function cookieNames(secure: boolean) {
  const prefix = secure ? "__Secure-" : ""
  return {
    sessionToken: `${prefix}authjs.session-token`,
    callbackUrl: `${prefix}authjs.callback-url`,
    // __Host- pins the CSRF cookie to this host and path /, so a sibling subdomain cannot toss it.
    csrfToken: secure ? "__Host-authjs.csrf-token" : "authjs.csrf-token",
  }
}

/** Attributes shared by the handler's cookies. */
export function cookieOptions(secure: boolean, maxAge?: number): SessionCookieOptions {
  return { path: "/", httpOnly: true, sameSite: "lax", secure, ...(maxAge === undefined ? {} : { maxAge }) }
}


/** The session token the request carries (joined from chunks), or undefined. A bad chunk set is no token. */
export function sessionTokenOf(request: Request, secure: boolean): string | undefined {
  try {
    return readChunkedCookie(requestCookies(request), cookieNames(secure).sessionToken)
  } catch {
    return undefined
  }
}

export { requestCookies, setCookieHeaders }
