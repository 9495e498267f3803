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
 * binding) is read as it is, and moved to a bound one when its row next slides: the old row then
 * answers for a minute more, for the requests already in flight with its cookie.
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
import type { AdapterSession, AdapterUser, AdapterWith } from "./adapter.js"
import { bindToBrowser, browserBinding, csrfToken, sameBinding, type BindingContext } from "./browser-binding.js"
import { cacheCookie, cachedSession, clearCacheCookie, type DatabaseSession } from "./session-cache.js"
import { defaultClaims } from "./jwt-session-token.js"
import { requestSessionToken } from "./session-cookies.js"
import type { HeldSession, SessionContext } from "./session-store.js"
import type { SESSION_METHODS } from "./requirements.js"
import type { Session } from "../types.js"

/**
 * How long an Auth.js row still answers once its session has moved to a bound token: requests the
 * browser sent before the move's answer arrived (a second tab, a page and its own `/auth/session`
 * fetch) read the session, rather than clearing the cookie the browser now holds.
 */
const MOVED_GRACE_MS = 60_000

/** A read row: the token it was read by, the row, and its user. */
type FoundRow = Pick<DatabaseSession, "sessionToken" | "session" | "user">

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
    // Before the slide, which it would be due for: an Auth.js row in its last minute has moved (see moved()).
    const inGrace = !sessionToken.includes(".") && session.expires.getTime() - Date.now() <= MOVED_GRACE_MS
    // The grace is for reads in flight. A change that lasts is made only as this browser's live
    // successor: not after a sign-out with the new cookie, nor with a copy of the old one elsewhere.
    if (inGrace) return confirmed ? await movedTo(context, { sessionToken, session, user }) : await afterMove(context, { sessionToken, session, user }, slide)
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

/** A row extended by `maxAge`, with its cookies re-set; an Auth.js row is moved to a bound token instead (null: revoked meanwhile). */
async function slid(context: SessionContext, found: FoundRow): Promise<DatabaseSession | null> {
  if (!found.sessionToken.includes(".")) return moved(context, found)
  const { sessionToken } = found
  const expires = new Date(Date.now() + context.sessionMaxAge * 1000)
  await call("updateSession", () => sessionAdapter(context).updateSession({ sessionToken, expires }))
  return withCookies(context, { sessionToken, session: { ...found.session, expires }, user: found.user }, await keptBinding(context, sessionToken))
}

/**
 * The CSRF cookie a slid session's binding hashes, set to last as long as the session again: it was
 * set for `maxAge` at sign-in (or at the move), and the session would read as signed out once it
 * ran out. Re-set, it is also keyed with the newest secret, so removing an old one keeps the
 * binding. None for a token bound to another browser (read only with `session.sharedAcrossSubdomains`):
 * this browser's cookie is not what binds it.
 */
async function keptBinding(context: SessionContext, sessionToken: string): Promise<string[]> {
  if (!(await isThisBrowsersToken(context, sessionToken))) return []
  return (await csrfToken(context, context.sessionMaxAge)).cookies
}

/** The read session, with its cookie and cache copy to set, and `more` cookies (the CSRF cookie that binds it). */
async function withCookies(context: SessionContext, found: FoundRow, more: string[]): Promise<DatabaseSession> {
  const cookies = [...sessionCookie(context, found.sessionToken, found.session.expires), ...(await cacheCookie(context, found)), ...more]
  return { ...found, cookies, fromCache: false }
}

/**
 * An Auth.js session moved to a bound token: a successor row for `maxAge`, and the old row cut to
 * the grace rather than deleted, so a request already in flight with the old cookie still reads
 * the session (afterMove) instead of clearing the new cookie. The successor's token is derived
 * from the old one, so two requests that slide the same row at once make one successor, not an
 * orphan beside it. If cutting the old row fails (logged), it ends at its own expiry, and a later
 * read with its cookie moves it again, to the same successor.
 */
async function moved(context: SessionContext, found: FoundRow): Promise<DatabaseSession | null> {
  const adapter = sessionAdapter(context)
  const { sessionToken, cookies } = await boundSessionToken(context, found.sessionToken)
  const session = await successorRow(context, { sessionToken, userId: found.user.id, expires: new Date(Date.now() + context.sessionMaxAge * 1000) })
  const grace = new Date(Date.now() + MOVED_GRACE_MS)
  await call("updateSession", () => adapter.updateSession({ sessionToken: found.sessionToken, expires: grace })).catch((error: Error) => context.logger.error(error))
  // A revocation ("sign out everywhere", a reset) that deleted the user's rows after this move read
  // the old row, and before it wrote the successor, never saw the successor: the old row must still
  // be there, or the successor goes too and the session is over.
  if (!(await call("getSessionAndUser", () => adapter.getSessionAndUser(found.sessionToken)))) {
    if (await call("getSessionAndUser", () => adapter.getSessionAndUser(sessionToken))) await call("deleteSession", () => adapter.deleteSession(sessionToken))
    return null
  }
  return withCookies(context, { sessionToken, session, user: found.user }, cookies)
}

/**
 * Creates the successor row. When that fails because a concurrent move made it first (a unique
 * token), that row is answered. An adapter whose token is not unique (pg-adapter) takes both
 * inserts: two rows of one token, which its reads, updates and deletes all treat as one.
 */
async function successorRow(context: SessionContext, row: AdapterSession): Promise<AdapterSession> {
  const adapter = sessionAdapter(context)
  try {
    await call("createSession", () => adapter.createSession(row))
    return row
  } catch (error) {
    const made = await call("getSessionAndUser", () => adapter.getSessionAndUser(row.sessionToken)).catch(() => null)
    if (made) return made.session
    throw error
  }
}

/**
 * An Auth.js row in its grace answers without moving again. A read that sets cookies and finds the
 * successor gives the same cookies the move gave (its answer may have been lost: an aborted
 * fetch); otherwise the old row answers as it is, with no cookie, so nothing clears or overwrites
 * the one the browser holds or is about to hold. After a sign-out with the new cookie the old row
 * still answers reads so, until it ends within the grace: only the new token is known there (a
 * change that lasts asks for the successor instead: readDatabaseSession's `confirmed`). A row
 * Auth.js left idle into its last minute lands here too: it answers, then ends, unslid.
 */
async function afterMove(context: SessionContext, found: FoundRow, slide: boolean): Promise<DatabaseSession> {
  const successor = slide ? await movedTo(context, found) : null
  return successor ?? { ...found, cookies: [], fromCache: false }
}

/** The session `found` moved to in this browser, with its cookies; null when there is none (or the read failed, which is logged). */
async function movedTo(context: SessionContext, found: FoundRow): Promise<DatabaseSession | null> {
  const { sessionToken, cookies } = await boundSessionToken(context, found.sessionToken)
  const row = await call("getSessionAndUser", () => sessionAdapter(context).getSessionAndUser(sessionToken)).catch((error: Error) => void context.logger.error(error))
  if (!row || row.session.expires.getTime() <= Date.now()) return null
  return withCookies(context, { sessionToken, session: row.session, user: row.user }, cookies)
}

/**
 * `<64 hex>.<browser>`, as every latchkey token, its hex an HMAC of the Auth.js token and the
 * binding under the secret: every request that moves one session in one browser names the same
 * row, and no one without the secret can name it.
 */
async function successorToken(context: SessionContext, legacyToken: string, browser: string): Promise<string> {
  const text = new TextEncoder()
  const key = await crypto.subtle.importKey("raw", text.encode(context.secret[0]), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const mac = await crypto.subtle.sign("HMAC", key, text.encode(`latchkey moved session\0${legacyToken}\0${browser}`))
  return `${hex(new Uint8Array(mac))}.${browser}`
}

/**
 * Signing out with an Auth.js token also deletes the row it moved to in this browser: a sign-out
 * sent with the old cookie before the move's answer arrived ends the session, whichever answer the
 * browser applies last. (A sign-out with the new cookie cannot name the old row; it ends within
 * the grace.) Read first, as some adapters throw when deleting a row that is not there.
 */
export async function deleteMovedSession(context: SessionContext, sessionToken: string): Promise<void> {
  if (sessionToken.includes(".")) return
  const browser = await browserBinding(context)
  if (browser === undefined) return
  const adapter = sessionAdapter(context)
  const successor = await successorToken(context, sessionToken, browser)
  if (await call("getSessionAndUser", () => adapter.getSessionAndUser(successor))) await call("deleteSession", () => adapter.deleteSession(successor))
}

/**
 * A new session token bound to this browser, and the CSRF cookie to keep as long as the session:
 * random, or, for an Auth.js token `movedFrom`, the one it moves to in this browser (successorToken).
 */
async function boundSessionToken(context: SessionContext, movedFrom?: string): Promise<{ sessionToken: string; cookies: string[] }> {
  const { browser, cookies } = await bindToBrowser(context, context.sessionMaxAge)
  const sessionToken = movedFrom === undefined ? `${hex(crypto.getRandomValues(new Uint8Array(32)))}.${browser}` : await successorToken(context, movedFrom, browser)
  return { sessionToken, cookies }
}

/** What an update (`POST /session`) shows the `session` callback of a database session, as Auth.js does: the client's data. */
export interface SessionUpdate {
  trigger: "update"
  /** What the client's `update(data)` sent: any JSON. */
  newSession: unknown
}

/**
 * The session object for a database session, through the `session` callback (with the user, as in
 * Auth.js, and with `update`'s data when it answers one). `ended` says a provider refused to
 * refresh one of the user's tokens.
 */
export function databaseSessionFor(context: SessionContext, found: DatabaseSession, ended = false, update?: SessionUpdate): Session | Promise<Session> {
  const { user, session: row } = found
  const session: Session = { user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null }, expires: row.expires.toISOString() }
  if (ended) session.error = "RefreshTokenError"
  const callback = context.callbacks.session
  // Without a session callback the answer needs no promise: the common read stays one await deep.
  return callback ? shapedBy(callback({ session, user, token: defaultClaims(user), ...update }), ended) : session
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
export async function freshDatabaseSessionFor(context: SessionContext, found: DatabaseSession, update?: SessionUpdate): Promise<Session | null> {
  const engine = context.providerTokens
  if (!engine) return databaseSessionFor(context, found, false, update)
  const held = heldSession(context, found)
  const fresh = engine.freshenUserAccounts(context, held)
  const ended = fresh instanceof Promise ? (await fresh).ended : fresh.ended
  return held.revoked() ? null : databaseSessionFor(context, found, ended, update)
}
