/**
 * CSRF protection by double submit: a random token lives in a cookie, together with a hash that
 * binds it to the secret, and every state-changing POST must echo the token in its body. A cookie
 * the attacker planted without the secret fails the hash; a cross-site form cannot read the cookie
 * to echo it.
 */
import { encodeBase64url } from "../jwt/base64url.js"
import { cookieNames, cookieOptions, requestCookies, setCookieHeaders } from "./cookies.js"

async function sha256(text: string): Promise<string> {
  return encodeBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))))
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** The request's valid CSRF token, if its cookie carries one made with this secret. */
async function cookieToken(request: Request, secure: boolean, secret: string[]): Promise<string | undefined> {
  const value = requestCookies(request)[cookieNames(secure).csrfToken]
  const [token, hash] = value?.split("|") ?? []
  if (!token || !hash) return undefined
  for (const candidate of secret) if (constantTimeEqual(hash, await sha256(`${token}${candidate}`))) return token
  return undefined
}

/** The CSRF token for this request, and the cookie to set when a new one was made. */
export async function csrfToken(request: Request, secure: boolean, secret: string[]): Promise<{ token: string; cookies: string[] }> {
  const existing = await cookieToken(request, secure, secret)
  if (existing) return { token: existing, cookies: [] }
  const token = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  const value = `${token}|${await sha256(`${token}${secret[0]}`)}`
  return { token, cookies: setCookieHeaders({ name: cookieNames(secure).csrfToken, value, options: cookieOptions(secure) }) }
}

/** Whether a POST's `csrfToken` matches its valid CSRF cookie. */
export async function verifyCsrf(request: Request, submitted: string | null, secure: boolean, secret: string[]): Promise<boolean> {
  if (!submitted) return false
  const token = await cookieToken(request, secure, secret)
  return token !== undefined && constantTimeEqual(token, submitted)
}
