/**
 * The session the cookies alone prove, for code that must not reach the database: a Next.js proxy
 * (middleware) or any edge gate. A JWT session is read as `auth()` reads it. A database session is
 * read from its sealed cache copy (`session.cache`) when that copy is fresh and sealed for the very
 * token in the cookie; otherwise only the database could tell, and the answer says so. A session
 * bound to another browser (planted by a sibling subdomain) is none, as in every read.
 */
import type { Session } from "../types.js"
import type { RequestContext } from "./config.js"
import { cachedSession, databaseSessionFor, thisBrowsersSessionToken } from "./database-session.js"
import { applyJwtCallback, readClaims, sessionFor } from "./session.js"

/**
 * What the cookies prove: the session, or null; `unverified` is true when a database session
 * token is present but no fresh cache copy vouches for it, so only the database can decide.
 *
 * @example
 * ```ts
 * import type { CookieSession } from "latchkey"
 * const answer: CookieSession = { session: null, unverified: true } // a database session, cache expired
 * ```
 */
export interface CookieSession<S extends Session = Session> {
  session: S | null
  unverified: boolean
}

/** Reads the session from the request's cookies without any adapter call. */
export async function sessionFromCookies(context: RequestContext): Promise<CookieSession> {
  if (context.sessionStrategy === "database") {
    const sessionToken = await thisBrowsersSessionToken(context)
    if (!sessionToken) return { session: null, unverified: false }
    const cached = await cachedSession(context, sessionToken)
    return cached ? { session: await databaseSessionFor(context, cached), unverified: false } : { session: null, unverified: true }
  }
  const claims = await readClaims(context)
  if (!claims) return { session: null, unverified: false }
  const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
  return { session: shaped ? await sessionFor(context, shaped) : null, unverified: false }
}
