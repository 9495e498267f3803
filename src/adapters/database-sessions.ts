/**
 * Database sessions as a `SessionStore`, and hybrid sessions with them: a row per session through
 * the adapter (database-session-rows.ts), read from the `session.cache` copy when the app keeps one
 * (session-cache.ts). Reads that only show the session may take the copy; the confirmed read that
 * every lasting change makes, and the session lent to provider tokens before they write, read or
 * check the row itself, so a revoked session changes nothing. Sign-out and revocation delete rows.
 */
import { withAdapterMethods, type AdapterUser, type AdapterWith } from "./adapter.js"
import { notThisBrowsers } from "./browser-binding.js"
import {
  call,
  clearDatabaseSessionCookies,
  createDatabaseSession,
  databaseSessionFor,
  deleteMovedSession,
  freshDatabaseSessionFor,
  heldSession,
  isThisBrowsersToken,
  readDatabaseSession,
  thisBrowsersSessionToken,
  type SessionUpdate,
} from "./database-session-rows.js"
import { fireEvent } from "./events.js"
import { defaultClaims, revokeVersions } from "./jwt-session-token.js"
import { cacheCookie, cachedSession } from "./session-cache.js"
import { requestSessionToken } from "./session-cookies.js"
import type { SessionAnswer, SessionContext, SessionStore } from "./session-store.js"

/** A token as latchkey makes them: 32 random bytes in hex, a dot, and the browser binding (a base64url SHA-256). */
const BOUND_TOKEN = /^[0-9a-f]{64}\.[\w-]{43}$/

/**
 * Whether a database session token is worth the database's look: shaped as latchkey makes them,
 * and bound to this browser. Anything else (garbage, a token planted from another browser, or
 * one Auth.js made, which carries no binding) cannot be told from a forgery by the cookies alone.
 */
async function isBoundHere(context: SessionContext, sessionToken: string): Promise<boolean> {
  // With sessionsBoundToBrowser off (sharedAcrossSubdomains), thisBrowsersSessionToken passed a token bound elsewhere: the shape still has to hold.
  return BOUND_TOKEN.test(sessionToken) && (!context.sessionsBoundToBrowser || (await isThisBrowsersToken(context, sessionToken)))
}

/**
 * `GET /session` (no `update`: firing `session`) and `POST /session` (`update`: the row is the
 * session, so an update re-reads it, and the session callback is shown the client's data): the
 * row read and slid, through the session callback. Signed out, the cookies are cleared: for a
 * read, whenever a session cookie came; for an update, when a row was found but freshening ended it.
 */
async function current(context: SessionContext, update?: SessionUpdate): Promise<SessionAnswer> {
  const found = await readDatabaseSession(context, true)
  const session = found && (await freshDatabaseSessionFor(context, found, update))
  if (!found || !session) return { session: null, cookies: (update ? found : requestSessionToken(context)) ? clearDatabaseSessionCookies(context) : [] }
  if (!update) await fireEvent(context, "session", { session, token: defaultClaims(found.user) })
  return { session, cookies: found.cookies }
}

/** The database (and hybrid) session store. */
export const databaseSessions: SessionStore = {
  rows: true,
  async read(context) {
    const found = await readDatabaseSession(context, false)
    if (!found) return null
    return context.providerTokens ? freshDatabaseSessionFor(context, found) : databaseSessionFor(context, found)
  },
  current: (context) => current(context),
  async update(context, submitted) {
    // Read before the row: malformed data is answered 400 with no cookies, so it must not cost a
    // slide, or a move whose new cookie it would drop.
    let newSession: unknown
    try {
      newSession = submitted()
    } catch {
      return undefined
    }
    return current(context, { trigger: "update", newSession })
  },
  async issue(context, { user }) {
    // As in Auth.js, a database session runs no jwt callback: the row is the session.
    return createDatabaseSession(context, user as AdapterUser)
  },
  async end(context) {
    const sessionToken = requestSessionToken(context)
    if (sessionToken) {
      const adapter = context.adapter as AdapterWith<"deleteSession">
      const session = await call("deleteSession", () => adapter.deleteSession(sessionToken))
      // An Auth.js token: the bound row latchkey moved it to in this browser ends with it.
      await deleteMovedSession(context, sessionToken)
      await fireEvent(context, "signOut", { session: session ?? null })
    }
    return clearDatabaseSessionCookies(context)
  },
  async confirmedUser(context) {
    const sessionToken = requestSessionToken(context)
    if (!sessionToken) return null
    // Even where the app shares sessions across subdomains: only this browser's session may change what lasts.
    if (!(await isThisBrowsersToken(context, sessionToken))) return notThisBrowsers(context)
    const found = await readDatabaseSession(context, false, true)
    return found && { userId: String(found.user.id), user: found.user }
  },
  async refreshUser(context, user) {
    // Plain database sessions read the row on every request: nothing to refresh.
    if (context.sessionCacheMaxAge === 0) return []
    const found = await readDatabaseSession(context, false, true)
    return found && String(found.user.id) === String(user.id) ? cacheCookie(context, found) : []
  },
  async fromCookies(context) {
    const sessionToken = await thisBrowsersSessionToken(context)
    if (!sessionToken) return { session: null, unverified: false }
    const cached = context.sessionCacheMaxAge === 0 ? undefined : await cachedSession(context, sessionToken)
    if (cached) return { session: await databaseSessionFor(context, cached), unverified: false }
    return { session: null, unverified: await isBoundHere(context, sessionToken) }
  },
  async lend(context) {
    const found = await readDatabaseSession(context, false)
    return found && heldSession(context, found)
  },
  async revoke(settings, sessionToken) {
    await withAdapterMethods(settings.adapter, ["deleteSession"], "revokeSession").deleteSession(sessionToken)
  },
  async revokeUser(settings, whose) {
    const adapter = withAdapterMethods(settings.adapter, ["deleteSessionsByUserId"], "revokeSessions")
    const userId = await whose()
    await adapter.deleteSessionsByUserId(userId)
    // The rows are the sessions; the version reaches their cache copies (hybrid sessions only).
    if (settings.sessionVersions) await revokeVersions(settings, settings.sessionVersions, userId)
  },
}
