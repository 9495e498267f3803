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
 * the binding back, so a session cookie a sibling subdomain planted reads as signed out (unless
 * `session.sharedAcrossSubdomains`) and is never linked into. An Auth.js token (a UUID, no
 * binding) is read as it is, and replaced by a bound one when its row next slides.
 *
 * The cache answers reads only: whatever lasts (see confirmed-session.ts) reads the row itself.
 *
 * A database that fails on a read is logged and the request is signed out; a failing write is an
 * `AdapterError` for the handler to answer.
 */
import { AdapterError } from "../errors.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { withAdapterMethods, type AdapterSession, type AdapterUser } from "../adapters/adapter.js"
import { SESSION_METHODS } from "../adapters/requirements.js"
import type { HeldSession } from "../provider-tokens/types.js"
import type { Session } from "../types.js"
import { fireEvent, type RequestContext } from "./config.js"
import { cookieSpec, requestCookies, sessionTokenOfContext, setCookieHeaders } from "./cookies.js"
import { browserBinding } from "./csrf.js"
import { constantTimeEqual, hex } from "./digest.js"
import { bindToBrowser, defaultClaims, type BindingContext } from "./session.js"

function sessionAdapter(context: RequestContext) {
  return withAdapterMethods(context.config.adapter, SESSION_METHODS, "database sessions")
}

/** Runs an adapter call; a failure becomes an `AdapterError` that carries no row, token or message. */
async function call<T>(method: string, run: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new AdapterError(method, error, (await import("../lib/driver-errors.js")).driverErrorHint(error))
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
  const { sessionToken, cookies } = await boundSessionToken(context)
  const expires = new Date(Date.now() + context.sessionMaxAge * 1000)
  await call("createSession", () => adapter.createSession({ sessionToken, userId: user.id, expires }))
  // With session.cache, the copy starts with the session: the first request after sign-in (and a
  // proxy, which has no database) reads it without a round trip.
  const cache = await cacheCookie(context, { sessionToken, session: { sessionToken, userId: user.id, expires }, user })
  return [...sessionCookie(context, sessionToken, expires), ...cache, ...cookies]
}

/** Whether a database session token was made in this browser (tokens Auth.js made cannot be known, and pass). */
export async function isThisBrowsersToken(context: BindingContext, sessionToken: string): Promise<boolean> {
  const dot = sessionToken.indexOf(".")
  if (dot === -1) return true
  const found = browserBinding(context)
  const binding = found instanceof Promise ? await found : found
  return binding !== undefined && constantTimeEqual(sessionToken.slice(dot + 1), binding)
}

/**
 * The request's session token, when it is this browser's (or carries no binding, or the app shares
 * sessions across subdomains); undefined for none, and for one bound to another browser.
 */
export async function thisBrowsersSessionToken(context: RequestContext): Promise<string | undefined> {
  const sessionToken = sessionTokenOfContext(context)
  if (!sessionToken || !context.sessionsBoundToBrowser || (await isThisBrowsersToken(context, sessionToken))) return sessionToken
  context.logger.debug("session token ignored: bound to another browser", { code: "ERR_SESSION_NOT_BOUND" })
  return undefined
}

/** A read session: the row, its user, and cookies to set when it slid or was refreshed. */
export interface DatabaseSession {
  sessionToken: string
  session: AdapterSession
  user: AdapterUser
  cookies: string[]
  /** Answered by the `session.cache` copy: the row may be gone (revoked) since the copy was made. */
  fromCache: boolean
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
  return { sessionToken, session: { sessionToken, userId: user.id, expires: new Date(opened.expires * 1000) }, user, cookies: [], fromCache: true }
}

async function cacheCookie(context: RequestContext, found: Pick<DatabaseSession, "sessionToken" | "session" | "user">): Promise<string[]> {
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
 * The request's database session, or null (no cookie, a token bound to another browser, no row, an
 * expired row, or a database that failed, which is logged). With `slide`, a row older than
 * `updateAge` is extended and its cookie re-set, and an expired row is deleted; `auth()` reads
 * without writing. A fresh `session.cache` copy answers instead of the row, unless `confirmed`
 * asks for the row itself (what every write that lasts reads: see confirmed-session.ts).
 */
export async function readDatabaseSession(context: RequestContext, slide: boolean, { confirmed = false } = {}): Promise<DatabaseSession | null> {
  const sessionToken = await thisBrowsersSessionToken(context)
  if (!sessionToken) return null
  const cached = confirmed ? undefined : await cachedSession(context, sessionToken)
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
      return { sessionToken, session, user, cookies: slide ? await cacheCookie(context, { sessionToken, session, user }) : [], fromCache: false }
    }
    return await slid(context, { sessionToken, session, user })
  } catch (error) {
    context.logger.error(error as Error)
    return null
  }
}

/**
 * A row extended by `maxAge`, with its cookies re-set. A token with no browser binding (Auth.js's)
 * is replaced by a bound one: a new row, then the old one deleted (a failure there is logged; the
 * old row then ends at its expiry).
 */
async function slid(context: RequestContext, found: Pick<DatabaseSession, "sessionToken" | "session" | "user">): Promise<DatabaseSession> {
  const adapter = sessionAdapter(context)
  const expires = new Date(Date.now() + context.sessionMaxAge * 1000)
  let { sessionToken } = found
  let binding: string[] = []
  if (sessionToken.includes(".")) await call("updateSession", () => adapter.updateSession({ sessionToken, expires }))
  else {
    const bound = await boundSessionToken(context)
    sessionToken = bound.sessionToken
    binding = bound.cookies
    await call("createSession", () => adapter.createSession({ sessionToken, userId: found.user.id, expires }))
    await call("deleteSession", () => adapter.deleteSession(found.sessionToken)).catch((error: Error) => context.logger.error(error))
  }
  const extended = { ...found.session, sessionToken, expires }
  const cookies = [...sessionCookie(context, sessionToken, expires), ...(await cacheCookie(context, { sessionToken, session: extended, user: found.user })), ...binding]
  return { sessionToken, session: extended, user: found.user, cookies, fromCache: false }
}

/** A new session token bound to this browser, and the CSRF cookie to keep as long as the session. */
async function boundSessionToken(context: RequestContext): Promise<{ sessionToken: string; cookies: string[] }> {
  const { browser, cookies } = await bindToBrowser(context)
  return { sessionToken: `${hex(crypto.getRandomValues(new Uint8Array(32)))}.${browser}`, cookies }
}

/**
 * The session object for a database session, through the `session` callback (with the user, as in
 * Auth.js). `ended` says a provider refused to refresh one of the user's tokens.
 */
export async function databaseSessionFor(context: RequestContext, found: DatabaseSession, ended = false): Promise<Session> {
  const { user, session: row } = found
  const session: Session = { user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: row.expires.toISOString() }
  if (ended) session.error = "RefreshTokenError"
  const callback = context.config.callbacks?.session
  const shaped = callback ? await callback({ session, user, token: defaultClaims(user) }) : session
  return ended && shaped && typeof shaped === "object" ? { ...shaped, error: "RefreshTokenError" } : shaped
}

/**
 * A read session as provider tokens are lent it (see provider-tokens/types.ts): its user, and the
 * confirmation their writes wait for. A session the row answered is confirmed as it is; one the
 * `session.cache` copy answered is checked against its row, once per request. `revoked` says the
 * check found the row gone.
 */
export function heldSession(context: RequestContext, found: DatabaseSession): HeldSession & { revoked(): boolean } {
  let confirmation: Promise<boolean> | undefined
  let revoked = false
  const confirm = async () => {
    const row = await readDatabaseSession(context, false, { confirmed: true })
    revoked = row === null || String(row.user.id) !== String(found.user.id)
    return !revoked
  }
  return {
    userId: found.user.id,
    confirm: () => (found.fromCache ? (confirmation ??= confirm()) : Promise.resolve(true)),
    revoked: () => revoked,
  }
}

/**
 * {@link databaseSessionFor} after the user's provider tokens are freshened, with
 * `providerTokens({ refresh })` on (see provider-tokens/account-tokens.ts); the same call without
 * it. Null when freshening found that the cache's copy outlived its row (a revoked session).
 */
export async function freshDatabaseSessionFor(context: RequestContext, found: DatabaseSession): Promise<Session | null> {
  const engine = context.providerTokens
  if (!engine) return databaseSessionFor(context, found)
  const held = heldSession(context, found)
  const fresh = engine.freshenUserAccounts(context, held)
  const ended = fresh instanceof Promise ? (await fresh).ended : fresh.ended
  return held.revoked() ? null : databaseSessionFor(context, found, ended)
}

/** GET /session with database sessions: the session (firing the `session` event) and the cookies to set. */
export async function currentDatabaseSession(context: RequestContext): Promise<{ session: Session | null; cookies: string[] }> {
  const found = await readDatabaseSession(context, true)
  const session = found && (await freshDatabaseSessionFor(context, found))
  if (!found || !session) return { session: null, cookies: sessionTokenOfContext(context) ? clearDatabaseSessionCookies(context) : [] }
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
