/**
 * The handler answers with `Set-Cookie` header values; a framework's action writes cookies through
 * its own store (`cookies().set(...)` in Next.js, `event.cookies.set(...)` in SvelteKit). This turns
 * one into the other, attribute for attribute, so a cookie an action writes is the cookie the
 * handler would have sent.
 */
import { parseSetCookie } from "cookie"

/** One cookie with its attributes, in the shape Next's `cookies().set(...)` takes. */
export interface CookieToSet {
  name: string
  value: string
  maxAge?: number
  expires?: Date
  domain?: string
  path?: string
  httpOnly?: boolean
  secure?: boolean
  sameSite?: boolean | "lax" | "strict" | "none"
  partitioned?: boolean
  priority?: "low" | "medium" | "high"
}

/**
 * A `Set-Cookie` value as a cookie to set. The value is percent-decoded, because the frameworks'
 * stores percent-encode it again when they write the header: a CSRF cookie's `|` stays one `%7C`.
 */
export function cookieToSet(header: string): CookieToSet {
  const parsed = parseSetCookie(header)
  const cookie: CookieToSet = { name: parsed.name, value: parsed.value ?? "" }
  for (const key of ["maxAge", "expires", "domain", "path", "httpOnly", "secure", "sameSite", "partitioned", "priority"] as const) {
    if (parsed[key] !== undefined) (cookie as unknown as Record<string, unknown>)[key] = parsed[key]
  }
  return cookie
}
