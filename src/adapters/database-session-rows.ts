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
 * that jwt-session-token.ts binds JWT sessions with. Auth.js treats it as any opaque token; latchkey reads
 * the binding back, so a session cookie a sibling subdomain planted reads as signed out (unless
 * `session.sharedAcrossSubdomains`) and is never linked into. An Auth.js token (a UUID, no
 * binding) is read as it is, and replaced by a bound one when its row next slides.
 *
 * The cache answers reads only (session-cache.ts): whatever lasts reads the row itself. The store
 * over these rows is database-sessions.ts.
 *
 * A database that fails on a read is logged and the request is signed out; a failing write is an
 * `AdapterError` for the handler to answer.
 */
import { AdapterError } from "../errors.js"
import { setCookieHeaders } from "../jwt/cookies.js"
import { cookieSpec } from "../jwt/cookie-names.js"
import { hex } from "../lib/digest.js"
import type { AdapterUser, AdapterWith } from "./adapter.js"
import { bindToBrowser, browserBinding, sameBinding, type BindingContext } from "./browser-binding.js"
import { cacheCookie, cachedSession, clearCacheCookie, type DatabaseSession } from "./session-cache.js"
import { defaultClaims } from "./jwt-session-token.js"
import { requestSessionToken } from "./session-cookies.js"
import type { HeldSession, SessionContext } from "./session-store.js"
import type { SESSION_METHODS } from "./requirements.js"
import type { Session } from "../types.js"

/**
 * The adapter, with the session methods: `settleSessionStore` checked them once, when
 * `createAuth` settled on database sessions, so no read asks again.
 */
function sessionAdapter(context: SessionContext): AdapterWith<(typeof SESSION_METHODS)[number]> {
  return context.adapter as AdapterWith<(typeof SESSION_METHODS)[number]>
}

/** Runs an adapter call; a failure becomes an `AdapterError` that carries no row, token or message. */
export async function call<T>(method: string, run: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new AdapterError(method, error, (await import("../lib/driver-errors.js")).driverErrorHint(error))
  }
}

function sessionCookie(context: SessionContext, sessionToken: string, expires: Date): string[] {
  const maxAge = Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000))
  const { name, options } = cookieSpec(context, "sessionToken", maxAge)
  return setCookieHeaders({ name, value: sessionToken, options, request: context.request })
}

/** Set-Cookie values that remove the session cookie and its cache. */
export function clearDatabaseSessionCookies(context: SessionContext): string[] {
  const token = cookieSpec(context, "sessionToken")
  return [...setCookieHeaders({ name: token.name, value: null, options: token.options, request: context.request }), ...clearCacheCookie(context)]
}

/** Creates the row for a user who just signed in; answers the cookies to set. */
export async function createDatabaseSession(context: SessionContext, user: AdapterUser): Promise<string[]> {
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
export function isThisBrowsersToken(context: BindingContext, sessionToken: string): boolean | Promise<boolean> {
  const dot = sessionToken.indexOf(".")
  if (dot === -1) return true
  const bound = sessionToken.slice(dot + 1)
  const binding = browserBinding(context)
  // Answered without a promise when the browser's binding is remembered: no extra turn on the hot path.
  return binding instanceof Promise ? binding.then((known) => sameBinding(bound, known)) : sameBinding(bound, binding)
}

/**
 * The request's session token, when it is this browser's (or carries no binding, or the app shares
 * sessions across subdomains); undefined for none, and for one bound to another browser.
 */
export function thisBrowsersSessionToken(context: SessionContext): string | undefined | Promise<string | undefined> {
  const sessionToken = requestSessionToken(context)
  if (!sessionToken || !context.sessionsBoundToBrowser) return sessionToken
  // Answered without a promise when the browser's binding is remembered: every read passes here.
  const here = isThisBrowsersToken(context, sessionToken)
  if (here === true) return sessionToken
  if (here === false) return notBound(context)
  return here.then((bound) => (bound ? sessionToken : notBound(context)))
}

function notBound(context: SessionContext): undefined {
  context.logger.debug("session token ignored: bound to another browser", { code: "ERR_SESSION_NOT_BOUND" })
  return undefined
}

/**
 * The request's database session, or null (no cookie, a token bound to another browser, no row, an
 * expired row, or a database that failed, which is logged). With `slide`, a row older than
 * `updateAge` is extended and its cookie re-set, and an expired row is deleted; `auth()` reads
 * without writing. A fresh `session.cache` copy answers instead of the row, unless `confirmed`
 * asks for the row itself (what every write that lasts reads: the store's `confirmedUser`).
 */
export async function readDatabaseSession(context: SessionContext, slide: boolean, confirmed = false): Promise<DatabaseSession | null> {
  const token = thisBrowsersSessionToken(context)
  const sessionToken = token instanceof Promise ? await token : token
  if (!sessionToken) return null
  // Hybrid sessions: the copy answers unless the row itself is asked for.
  const cached = confirmed || context.sessionCacheMaxAge === 0 ? undefined : await cachedSession(context, sessionToken)
  if (cached) return cached
  const adapter = sessionAdapter(context)
  // The read every database session makes, awaited once (no wrapper): a failure is logged, and signs the request out.
  let found
  try {
    found = await adapter.getSessionAndUser(sessionToken)
  } catch (error) {
    // The driver's code and what it means (never its message), loaded only when a read failed.
    context.logger.error(new AdapterError("getSessionAndUser", error, (await import("../lib/driver-errors.js")).driverErrorHint(error)))
    return null
  }
  if (!found) return null
  try {
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
async function slid(context: SessionContext, found: Pick<DatabaseSession, "sessionToken" | "session" | "user">): Promise<DatabaseSession> {
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
async function boundSessionToken(context: SessionContext): Promise<{ sessionToken: string; cookies: string[] }> {
  const { browser, cookies } = await bindToBrowser(context, context.sessionMaxAge)
  return { sessionToken: `${hex(crypto.getRandomValues(new Uint8Array(32)))}.${browser}`, cookies }
}

/**
 * The session object for a database session, through the `session` callback (with the user, as in
 * Auth.js). `ended` says a provider refused to refresh one of the user's tokens.
 */
export function databaseSessionFor(context: SessionContext, found: DatabaseSession, ended = false): Session | Promise<Session> {
  const { user, session: row } = found
  const session: Session = { user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: row.expires.toISOString() }
  if (ended) session.error = "RefreshTokenError"
  const callback = context.callbacks.session
  // Without a session callback the answer needs no promise: the common read stays one await deep.
  return callback ? shapedBy(callback({ session, user, token: defaultClaims(user) }), ended) : session
}

async function shapedBy(answer: Session | PromiseLike<Session>, ended: boolean): Promise<Session> {
  const shaped = await answer
  return ended && shaped && typeof shaped === "object" ? { ...shaped, error: "RefreshTokenError" } : shaped
}

/**
 * A read session as provider tokens are lent it (see provider-tokens/types.ts): its user, and the
 * confirmation their writes wait for. A session the row answered is confirmed as it is; one the
 * `session.cache` copy answered is checked against its row, once per request. `revoked` says the
 * check found the row gone.
 */
export function heldSession(context: SessionContext, found: DatabaseSession): HeldSession & { revoked(): boolean } {
  let confirmation: Promise<boolean> | undefined
  let revoked = false
  const confirm = async () => {
    const row = await readDatabaseSession(context, false, true)
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
export async function freshDatabaseSessionFor(context: SessionContext, found: DatabaseSession): Promise<Session | null> {
  const engine = context.providerTokens
  if (!engine) return databaseSessionFor(context, found)
  const held = heldSession(context, found)
  const fresh = engine.freshenUserAccounts(context, held)
  const ended = fresh instanceof Promise ? (await fresh).ended : fresh.ended
  return held.revoked() ? null : databaseSessionFor(context, found, ended)
}
