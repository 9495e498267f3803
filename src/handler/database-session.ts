/**
 * Database sessions, as Auth.js keeps them: a row per session through the adapter
 * (`createSession`, `getSessionAndUser`, `updateSession`, `deleteSession`), and only an opaque
 * token in the cookie, under Auth.js's cookie name, so live sessions carry over in both directions.
 * The row's expiry slides by `updateAge` (one write per `updateAge`, not per read), an expired row
 * is deleted when it is read, and sign-out deletes the row, so a revoked session ends on the next
 * request. With `session.cache`, a sealed copy in a short-lived cookie spares most reads the
 * database, and revocation then takes up to that long.
 *
 * The token is `<random>.<browser>`: 32 random bytes, then the hash of the browser's CSRF token
 * that `session.ts` binds JWT sessions with. Auth.js treats it as any opaque token; latchkey reads
 * the binding back, so a session cookie a sibling subdomain planted is never linked into.
 *
 * A database that fails on a read is logged and the request is signed out; a failing write is an
 * `AdapterError` for the handler to answer.
 */
import { AdapterError } from "../errors.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { withAdapterMethods, type AdapterSession, type AdapterUser } from "../oauth/adapter.js"
import type { Session } from "../types.js"
import { fireEvent, type RequestContext } from "./config.js"
import { cookieSpec, requestCookies, sessionTokenOfContext, setCookieHeaders } from "./cookies.js"
import { cookieToken } from "./csrf.js"
import { constantTimeEqual, hex, sha256 } from "./digest.js"
import { bindToBrowser, defaultClaims } from "./session.js"

/** What database sessions call; `createAuth` checks the adapter has them. */
export const SESSION_METHODS = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const

function sessionAdapter(context: RequestContext) {
  return withAdapterMethods(context.config.adapter, SESSION_METHODS, "database sessions")
}

/** Runs an adapter call; a failure becomes an `AdapterError` that carries no row, token or message. */
async function call<T>(method: string, run: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new AdapterError(method, error)
  }
}

function sessionCookie(context: RequestContext, sessionToken: string, expires: Date): string[] {
  const maxAge = Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000))
  const { name, options } = cookieSpec(context, "sessionToken", maxAge)
  return setCookieHeaders({ name, value: sessionToken, options, request: context.request })
}

/** Set-Cookie values that remove the session cookie and its cache. */
export function clearDatabaseSessionCookies(context: RequestContext): string[] {
  const token = cookieSpec(context, "sessionToken")
  const cache = cookieSpec(context, "sessionCache")
  return [...setCookieHeaders({ name: token.name, value: null, options: token.options, request: context.request }), ...setCookieHeaders({ name: cache.name, value: null, options: cache.options })]
}

/** Creates the row for a user who just signed in; answers the cookies to set. */
export async function createDatabaseSession(context: RequestContext, user: AdapterUser): Promise<string[]> {
  const adapter = sessionAdapter(context)
  const { browser, cookies } = await bindToBrowser(context)
  const sessionToken = `${hex(crypto.getRandomValues(new Uint8Array(32)))}.${browser}`
  const expires = new Date(Date.now() + context.sessionMaxAge * 1000)
  await call("createSession", () => adapter.createSession({ sessionToken, userId: user.id, expires }))
  // With session.cache, the copy starts with the session: the first request after sign-in (and a
  // proxy, which has no database) reads it without a round trip.
  const cache = await cacheCookie(context, { sessionToken, session: { sessionToken, userId: user.id, expires }, user })
  return [...sessionCookie(context, sessionToken, expires), ...cache, ...cookies]
}

/** Whether a database session token was made in this browser (tokens Auth.js made cannot be known, and pass). */
export async function isThisBrowsersToken(context: RequestContext, sessionToken: string): Promise<boolean> {
  const dot = sessionToken.indexOf(".")
  if (dot === -1) return true
  const token = await cookieToken(context)
  return token !== undefined && constantTimeEqual(sessionToken.slice(dot + 1), await sha256(token))
}

/** A read session: the row, its user, and cookies to set when it slid or was refreshed. */
export interface DatabaseSession {
  sessionToken: string
  session: AdapterSession
  user: AdapterUser
  cookies: string[]
}

interface CachedSession {
  token: string
  user: Omit<AdapterUser, "emailVerified"> & { emailVerified: string | null }
  expires: number
}

function revive(user: CachedSession["user"]): AdapterUser {
  return { ...user, emailVerified: user.emailVerified === null ? null : new Date(user.emailVerified) }
}

/** The session from the cache cookie, when it is sealed for this very token and still fresh. */
export async function cachedSession(context: RequestContext, sessionToken: string): Promise<DatabaseSession | undefined> {
  if (context.sessionCacheMaxAge === 0) return undefined
  const { name } = cookieSpec(context, "sessionCache")
  const sealed = requestCookies(context.request)[name]
  if (!sealed) return undefined
  const opened = await decode<CachedSession>({ token: sealed, secret: context.secret, salt: name }).catch(() => null)
  if (!opened || typeof opened.token !== "string" || !constantTimeEqual(opened.token, sessionToken)) return undefined
  const user = revive(opened.user)
  return { sessionToken, session: { sessionToken, userId: user.id, expires: new Date(opened.expires * 1000) }, user, cookies: [] }
}

async function cacheCookie(context: RequestContext, found: Omit<DatabaseSession, "cookies">): Promise<string[]> {
  if (context.sessionCacheMaxAge === 0) return []
  const { name, options } = cookieSpec(context, "sessionCache", context.sessionCacheMaxAge)
  const token: CachedSession = {
    // The token itself, not a hash of it: the copy is encrypted with the secret, like the session
    // cookie beside it, and comparing saves a digest on every cached read.
    token: found.sessionToken,
    user: { ...found.user, emailVerified: found.user.emailVerified?.toISOString() ?? null },
    expires: Math.floor(found.session.expires.getTime() / 1000),
  }
  const sealed = await encode({ token, secret: context.secret, salt: name, maxAge: context.sessionCacheMaxAge })
  return setCookieHeaders({ name, value: sealed, options })
}

/**
 * The request's database session, or null (no cookie, no row, an expired row, or a database that
 * failed, which is logged). With `slide`, a row older than `updateAge` is extended and its cookie
 * re-set, and an expired row is deleted; `auth()` reads without writing.
 */
export async function readDatabaseSession(context: RequestContext, slide: boolean): Promise<DatabaseSession | null> {
  const sessionToken = sessionTokenOfContext(context)
  if (!sessionToken) return null
  const cached = await cachedSession(context, sessionToken)
  if (cached) return cached
  const adapter = sessionAdapter(context)
  try {
    const found = await call("getSessionAndUser", () => adapter.getSessionAndUser(sessionToken))
    if (!found) return null
    const { session, user } = found
    if (session.expires.getTime() <= Date.now()) {
      if (slide) await call("deleteSession", () => adapter.deleteSession(sessionToken))
      return null
    }
    // As Auth.js: the row was last extended at expires - maxAge; extend once updateAge has passed.
    const lastExtended = session.expires.getTime() - context.sessionMaxAge * 1000
    if (!slide || lastExtended + context.updateAge * 1000 > Date.now()) {
      return { sessionToken, session, user, cookies: slide ? await cacheCookie(context, { sessionToken, session, user }) : [] }
    }
    const expires = new Date(Date.now() + context.sessionMaxAge * 1000)
    await call("updateSession", () => adapter.updateSession({ sessionToken, expires }))
    const extended = { ...session, expires }
    return { sessionToken, session: extended, user, cookies: [...sessionCookie(context, sessionToken, expires), ...(await cacheCookie(context, { sessionToken, session: extended, user }))] }
  } catch (error) {
    context.logger.error(error as Error)
    return null
  }
}

/**
 * The session object for a database session, through the `session` callback (with the user, as in
 * Auth.js). `ended` says a provider refused to refresh one of the user's tokens.
 */
export async function databaseSessionFor(context: RequestContext, found: DatabaseSession, ended = false): Promise<Session> {
  const { user, session: row } = found
  const session: Session = { user: { name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: row.expires.toISOString() }
  if (ended) session.error = "RefreshTokenError"
  const callback = context.config.callbacks?.session
  const shaped = callback ? await callback({ session, user, token: defaultClaims(user) }) : session
  return ended && shaped && typeof shaped === "object" ? { ...shaped, error: "RefreshTokenError" } : shaped
}

/**
 * {@link databaseSessionFor} after the user's provider tokens are freshened, with
 * `session.refreshProviderTokens` on (see provider-tokens/account-tokens.ts); the same call without it.
 */
export async function freshDatabaseSessionFor(context: RequestContext, found: DatabaseSession): Promise<Session> {
  const fresh = context.providerTokens?.freshenUserAccounts(context, found.user.id)
  const ended = fresh instanceof Promise ? (await fresh).ended : (fresh?.ended ?? false)
  return databaseSessionFor(context, found, ended)
}

/** GET /session with database sessions: the session (firing the `session` event) and the cookies to set. */
export async function currentDatabaseSession(context: RequestContext): Promise<{ session: Session | null; cookies: string[] }> {
  const found = await readDatabaseSession(context, true)
  if (!found) return { session: null, cookies: sessionTokenOfContext(context) ? clearDatabaseSessionCookies(context) : [] }
  const session = await freshDatabaseSessionFor(context, found)
  await fireEvent(context, "session", { session, token: defaultClaims(found.user) })
  return { session, cookies: found.cookies }
}

/** Sign-out: deletes the row (so the session is revoked everywhere at once) and fires `signOut`. */
export async function endDatabaseSession(context: RequestContext): Promise<string[]> {
  const sessionToken = sessionTokenOfContext(context)
  if (sessionToken) {
    const adapter = sessionAdapter(context)
    const session = await call("deleteSession", () => adapter.deleteSession(sessionToken))
    await fireEvent(context, "signOut", { token: null, session: session ?? null })
  }
  return clearDatabaseSessionCookies(context)
}
