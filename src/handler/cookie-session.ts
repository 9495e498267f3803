/**
 * The session the cookies alone prove, for code that must not reach the database: a Next.js proxy
 * (middleware) or any edge gate. A JWT session is read as `auth()` reads it. A database session is
 * read from its sealed cache copy (`session.cache`) when that copy is fresh and sealed for the very
 * token in the cookie; otherwise only the database could tell, and the answer says so, but only for
 * a well-formed token bound to this browser: a garbage cookie is no session at all. A session
 * bound to another browser (planted by a sibling subdomain) is none, as in every read.
 */
import type { Session } from "../types.js"
import type { RequestContext } from "./config.js"
import { cachedSession, databaseSessionFor, isThisBrowsersToken, thisBrowsersSessionToken } from "./database-session.js"
import { applyJwtCallback, readClaims, sessionFor } from "./session.js"

/**
 * What the cookies prove: the session, or null; `unverified` is true when a database session
 * token made by latchkey in this very browser is present but no fresh cache copy vouches for it,
 * so only the database can decide.
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

/** A token as latchkey makes them: 32 random bytes in hex, a dot, and the browser binding (a base64url SHA-256). */
const BOUND_TOKEN = /^[0-9a-f]{64}\.[\w-]{43}$/

/**
 * Whether a database session token is worth the database's look: shaped as latchkey makes them,
 * and bound to this browser. Anything else (garbage, a token planted from another browser, or
 * one Auth.js made, which carries no binding) cannot be told from a forgery by the cookies alone.
 */
async function isBoundHere(context: RequestContext, sessionToken: string): Promise<boolean> {
  // With sessionsBoundToBrowser off (sharedAcrossSubdomains), thisBrowsersSessionToken passed a token bound elsewhere: the shape still has to hold.
  return BOUND_TOKEN.test(sessionToken) && (!context.sessionsBoundToBrowser || (await isThisBrowsersToken(context, sessionToken)))
}

/** Reads the session from the request's cookies without any adapter call. */
export async function sessionFromCookies(context: RequestContext): Promise<CookieSession> {
  if (context.sessionStrategy === "database") {
    const sessionToken = await thisBrowsersSessionToken(context)
    if (!sessionToken) return { session: null, unverified: false }
    const cached = await cachedSession(context, sessionToken)
    if (cached) return { session: await databaseSessionFor(context, cached), unverified: false }
    return { session: null, unverified: await isBoundHere(context, sessionToken) }
  }
  const claims = await readClaims(context)
  if (!claims) return { session: null, unverified: false }
  const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
  return { session: shaped ? await sessionFor(context, shaped) : null, unverified: false }
}
