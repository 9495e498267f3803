/**
 * The callback-url cookie: where to go once a sign-in that leaves the app (to a provider, or to an
 * inbox) comes back. It is sealed with the app's secret like the session, so a value a sibling
 * subdomain planted does not open, and it is checked against the origin again when it is read.
 */
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import type { RequestContext } from "./context.js"
import { requestCookies, setCookieHeaders } from "../jwt/cookies.js"
import { cookieSpec } from "../jwt/cookie-names.js"
import { sameOrigin } from "./redirect.js"

/** A day: long enough for an emailed link opened the next morning, and no longer. */
const CALLBACK_URL_MAX_AGE = 24 * 60 * 60

/** Set-Cookie values that carry `callbackUrl` (already checked same-origin) to the callback. */
export async function callbackUrlCookie(context: RequestContext, callbackUrl: string | undefined): Promise<string[]> {
  if (!callbackUrl) return []
  const { name, options } = cookieSpec(context, "callbackUrl")
  const sealed = await encode({ token: { url: callbackUrl }, secret: context.secret, salt: name, maxAge: CALLBACK_URL_MAX_AGE })
  return setCookieHeaders({ name, value: sealed, options })
}

/** The destination the request's callback-url cookie carries, when it opens and is on the origin. */
export async function savedCallbackUrl(context: RequestContext): Promise<string | undefined> {
  const { name } = cookieSpec(context, "callbackUrl")
  const sealed = requestCookies(context.request)[name]
  if (!sealed) return undefined
  const opened = await decode<{ url?: unknown }>({ token: sealed, secret: context.secret, salt: name }).catch(() => null)
  return typeof opened?.url === "string" ? sameOrigin(opened.url, context.origin) : undefined
}

/** Set-Cookie values that remove the callback-url cookie. */
export function clearCallbackUrl(context: RequestContext): string[] {
  const { name, options } = cookieSpec(context, "callbackUrl")
  return setCookieHeaders({ name, value: null, options })
}
