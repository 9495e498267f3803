/**
 * The session: a `latchkey/jwt` token in a chunked cookie. Writing runs the `jwt` callback over the
 * default claims; reading decodes, runs the `session` callback over the default session, and slides
 * the expiry once the token is older than `updateAge`.
 */
import { decode as decodeToken } from "../jwt/decode.js"
import { encode as encodeToken } from "../jwt/encode.js"
import type { Account, JWT, Profile, Session, User } from "../types.js"
import type { RequestContext } from "./config.js"
import { cookieNames, cookieOptions, sessionTokenOf, setCookieHeaders } from "./cookies.js"

/** The claims a new session starts with: `{ name, email, picture, sub }`. */
export function defaultClaims(user: User): JWT {
  const claims: JWT = { name: user.name ?? null, email: user.email ?? null, picture: user.image ?? null }
  if (user.id !== undefined) claims.sub = user.id
  return claims
}

/** Encodes claims into Set-Cookie values for the session cookie. */
export async function sessionCookies(context: RequestContext, claims: JWT): Promise<string[]> {
  const name = cookieNames(context.secure).sessionToken
  const { config, secret, sessionMaxAge } = context
  const params = { token: claims, secret, salt: name, maxAge: sessionMaxAge }
  const token = config.jwt?.encode ? await config.jwt.encode(params) : await encodeToken(params)
  return setCookieHeaders({ name, value: token, options: cookieOptions(context.secure, sessionMaxAge), request: context.request })
}

/** Set-Cookie values that remove every chunk of the session cookie. */
export function clearSessionCookies(context: RequestContext): string[] {
  return setCookieHeaders({ name: cookieNames(context.secure).sessionToken, value: null, options: cookieOptions(context.secure), request: context.request })
}

/** The session token's claims, or null when there is none or it does not decode (logged, not thrown). */
export async function readClaims(context: RequestContext): Promise<JWT | null> {
  const token = sessionTokenOf(context.request, context.secure)
  if (!token) return null
  const params = { token, secret: context.secret, salt: cookieNames(context.secure).sessionToken }
  try {
    return context.config.jwt?.decode ? await context.config.jwt.decode(params) : await decodeToken<JWT>(params)
  } catch (error) {
    context.config.logger?.debug?.("session token rejected", { code: (error as { code?: unknown }).code ?? "ERR_DECODE_FAILED" })
    return null
  }
}

/** The claims after the `jwt` callback; null means the callback ended the session. */
export async function applyJwtCallback(
  context: RequestContext,
  params: { token: JWT; user?: User; account?: Account | null; profile?: Profile; isNewUser?: boolean; trigger: "signIn" | "update" | "session"; session?: unknown }
): Promise<JWT | null> {
  const callback = context.config.callbacks?.jwt
  return callback ? await callback(params) : params.token
}

/** The session object for claims, through the `session` callback. */
export async function sessionFor(context: RequestContext, claims: JWT): Promise<Session> {
  const expires = new Date(((claims.exp as number | undefined) ?? Math.floor(Date.now() / 1000) + context.sessionMaxAge) * 1000).toISOString()
  const session: Session = { user: { name: claims.name ?? null, email: claims.email ?? null, image: claims.picture ?? null }, expires }
  const callback = context.config.callbacks?.session
  return callback ? await callback({ session, token: claims }) : session
}

/**
 * Reads the session for `/session`: when the token is older than `updateAge`, it is re-issued, so
 * the expiry slides while the user is active.
 */
export async function currentSession(context: RequestContext): Promise<{ session: Session | null; cookies: string[] }> {
  const claims = await readClaims(context)
  if (!claims) return { session: null, cookies: sessionTokenOf(context.request, context.secure) ? clearSessionCookies(context) : [] }
  const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
  if (!shaped) return { session: null, cookies: clearSessionCookies(context) }
  const age = Math.floor(Date.now() / 1000) - ((claims.iat as number | undefined) ?? 0)
  if (age < context.updateAge) return { session: await sessionFor(context, shaped), cookies: [] }
  const cookies = await sessionCookies(context, shaped)
  const exp = Math.floor(Date.now() / 1000) + context.sessionMaxAge
  return { session: await sessionFor(context, { ...shaped, exp }), cookies }
}
