/**
 * The hybrid part of database sessions: with `session.cache`, a sealed copy of the session (its
 * token, user and expiry) in a short-lived cookie answers most reads without the database, and
 * lets a proxy with no database read the session at all. The copy answers reads only: whatever
 * lasts reads the row itself (see `confirmedUser` in database-sessions.ts), because a revoked
 * session's copy lives on for up to `cache.maxAge`. Revoking all of a user's sessions reaches the
 * copies at once: each carries its user's session version, and a copy older than the version is
 * not used (the row is read instead, and it is gone).
 */
import { setCookieHeaders } from "../jwt/cookies.js"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { cookieSpec } from "../jwt/cookie-names.js"
import { constantTimeEqual } from "../lib/digest.js"
import type { AdapterSession, AdapterUser } from "./adapter.js"
import { tokenCookieOf } from "./session-cookies.js"
import type { SessionContext } from "./session-store.js"

/** A read database session: the row, its user, and cookies to set when it slid or was refreshed. */
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
  /** The user's session version when the copy was made (absent in copies made before versions, and read as 0). */
  version?: number
}

/**
 * The user's session version as this instance knows it (its store's local copy), or undefined
 * without a store. A store that cannot answer gives undefined too: a copy is then neither trusted
 * nor made, and the row answers (the database decides, as without a cache).
 */
function knownVersion(context: SessionContext, userId: string): number | undefined | Promise<number | undefined> {
  const store = context.sessionVersions
  if (store === undefined) return undefined
  try {
    const version = store.get(userId)
    // A number from a local copy is answered as it is: a cached read takes no extra turn.
    return typeof version === "number" ? version : version.catch(() => undefined)
  } catch {
    return undefined
  }
}

function revive(user: CachedSession["user"]): AdapterUser {
  return { ...user, emailVerified: user.emailVerified === null ? null : new Date(user.emailVerified) }
}

/** The session from the cache cookie, when it is sealed for this very token and still fresh. */
export async function cachedSession(context: SessionContext, sessionToken: string): Promise<DatabaseSession | undefined> {
  const { name } = cookieSpec(context, "sessionCache")
  // Joined from its chunks: a user row with a large column (a data-URL avatar) seals past 4 KB.
  const sealed = tokenCookieOf(context.request, name)
  if (!sealed) return undefined
  const opened = await decode<CachedSession>({ token: sealed, secret: context.secret, salt: name }).catch(() => null)
  if (!opened || typeof opened.token !== "string" || !constantTimeEqual(opened.token, sessionToken)) return undefined
  // The copy lives \`cache.maxAge\`, the row to its own expiry: whichever ends first ends the copy.
  if (!(opened.expires * 1000 > Date.now())) return undefined
  if (context.sessionVersions !== undefined) {
    // A copy made before its user's sessions were revoked is not used: the row decides.
    const known = knownVersion(context, String(opened.user.id))
    const current = known instanceof Promise ? await known : known
    if (current === undefined || (typeof opened.version === "number" ? opened.version : 0) < current) return undefined
  }
  const user = revive(opened.user)
  return { sessionToken, session: { sessionToken, userId: user.id, expires: new Date(opened.expires * 1000) }, user, cookies: [], fromCache: true }
}

/** Whether the session's row is there now; a read that fails answers no (no copy is made). */
async function rowStillThere(context: SessionContext, sessionToken: string): Promise<boolean> {
  try {
    return Boolean(await context.adapter?.getSessionAndUser?.(sessionToken))
  } catch {
    return false
  }
}

/** The cache cookie for a session just read or written; none without `session.cache`. */
export async function cacheCookie(context: SessionContext, found: Pick<DatabaseSession, "sessionToken" | "session" | "user">): Promise<string[]> {
  if (context.sessionCacheMaxAge === 0) return []
  const version = await knownVersion(context, String(found.user.id))
  if (context.sessionVersions !== undefined && version === undefined) return []
  // A revocation deletes the rows, then raises the version. One that lands after this request read
  // the row but before it read the version would stamp a copy of a deleted row with the new version,
  // and the copy would answer everywhere for \`cache.maxAge\`: the row must still be there once the
  // version is known. (One read more per copy made, not per read a copy answers.)
  if (version !== undefined && !(await rowStillThere(context, found.sessionToken))) return []
  const { name, options } = cookieSpec(context, "sessionCache", context.sessionCacheMaxAge)
  const token: CachedSession = {
    // The token itself, not a hash of it: the copy is encrypted with the secret, like the session
    // cookie beside it, and comparing saves a digest on every cached read.
    token: found.sessionToken,
    user: { ...found.user, emailVerified: found.user.emailVerified?.toISOString() ?? null },
    expires: Math.floor(found.session.expires.getTime() / 1000),
  }
  if (version !== undefined) token.version = version
  const sealed = await encode({ token, secret: context.secret, salt: name, maxAge: context.sessionCacheMaxAge })
  // The request lets the writer expire chunks of an older copy that this one does not overwrite.
  return setCookieHeaders({ name, value: sealed, options, request: context.request })
}

/** Set-Cookie values that remove the cache cookie, every chunk of it the request holds included. */
export function clearCacheCookie(context: SessionContext): string[] {
  const { name, options } = cookieSpec(context, "sessionCache")
  return setCookieHeaders({ name, value: null, options, request: context.request })
}
