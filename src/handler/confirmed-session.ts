/**
 * The confirmed session: the one read every change that lasts makes first. With `session.cache`,
 * a database session's reads are answered by a sealed copy in a cookie for up to `cache.maxAge`,
 * so a session revoked ("sign out everywhere") still reads as signed in for that long. Reads may
 * accept that; a change that outlives the request may not, or stolen cookies would turn a revoked
 * session into a lasting one: registering a passkey (and renaming or deleting one), linking an
 * OAuth account, the account API given a request, and provider-token writes (which get the same
 * confirmation through database-session.ts's `heldSession`). Each reads the session's row here,
 * never the copy, and only this browser's own session counts.
 */
import type { AdapterUser } from "../adapters/adapter.js"
import type { RequestContext } from "./config.js"
import { isThisBrowsersToken, readDatabaseSession } from "./database-session.js"
import { sessionTokenOfContext } from "./cookies.js"
import { decodeSessionCookie, isThisBrowsers } from "./session.js"

/** The user a confirmed session belongs to; with database sessions, the adapter's user comes along. */
export interface ConfirmedUser {
  userId: string
  user?: AdapterUser
}

/**
 * This browser's signed-in user, confirmed: with database sessions, read from the session's row
 * (never the cache's copy), so a revoked session is signed out here at once. A session made in
 * another browser counts as none, even where the app shares sessions across subdomains, and is
 * logged (`ERR_SESSION_NOT_BOUND`). JWT sessions have no row: their own cookie is the session.
 */
export async function confirmedUser(context: RequestContext): Promise<ConfirmedUser | null> {
  if (context.sessionStrategy === "database") {
    const sessionToken = sessionTokenOfContext(context)
    if (!sessionToken) return null
    if (!(await isThisBrowsersToken(context, sessionToken))) return notThisBrowsers(context)
    const found = await readDatabaseSession(context, false, { confirmed: true })
    return found && { userId: String(found.user.id), user: found.user }
  }
  const claims = await decodeSessionCookie(context)
  if (typeof claims?.sub !== "string") return null
  if (!(await isThisBrowsers(context, claims))) return notThisBrowsers(context)
  return { userId: claims.sub }
}

function notThisBrowsers(context: RequestContext): null {
  context.logger.warn("ERR_SESSION_NOT_BOUND", { message: "the session was not made in this browser; it counts as signed out for this change" })
  return null
}
