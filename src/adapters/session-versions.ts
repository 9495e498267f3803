/**
 * Per-user session versions: how a JWT session, which has no row, can still be revoked. Each user
 * has a version, 0 until their sessions are first revoked; every session token carries the version
 * current when it was issued (claim `latchkey.version`), and a read honours a token only when its
 * version is at least the user's. Revoking raises the user's version above every one issued so
 * far (to the current time in milliseconds, or one more when that is not higher), so every older
 * token of that user is signed out at its next read, and a session issued afterwards is not.
 *
 * A version is kept for as long as a token issued before it can live (`session.maxAge`); when it
 * lapses, the user reads as 0 again, which only tokens that have expired by then could fail. A
 * token with no claim (Auth.js's, from before the move, or one issued with revocation off) reads
 * as version 0: honoured until the user's sessions are first revoked, and dead after.
 *
 * The store is the app's: `memorySessionVersions()` (the default; this process only),
 * `redisSessionVersions(client)` from `latchkey/redis` (every instance), or its own.
 *
 * @module
 */
import type { JWT } from "../types.js"

/**
 * The claim a session token carries its version in. Auth.js names no claim with a `latchkey.`
 * prefix, so it collides with none of its own.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import { SESSION_VERSION_CLAIM } from "latchkey/adapters"
 * const issuedAt = (token: Record<string, unknown>) => token[SESSION_VERSION_CLAIM] // a number, or undefined
 * ```
 */
export const SESSION_VERSION_CLAIM = "latchkey.version"

/**
 * Where per-user session versions live (`session.revocationStore` in `createAuth`'s options). `get`
 * is on every JWT read: it may answer from a short local cache (and should answer without a promise
 * then), unless `fresh` asks for the shared value (a sign-in, and the confirmed read a lasting
 * change makes). `bump` raises the user's version above every version issued until now, keeps it
 * for `ttlSeconds`, and answers it. A store that cannot answer throws; what the session does then is
 * decided by the caller (see docs/sessions.md, "Revoking JWT sessions").
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import type { SessionVersionStore } from "latchkey/adapters"
 * // A store on the app's own key-value service (a sketch: kv.get answers a string or null).
 * const kvVersions: SessionVersionStore = {
 *   async get(userId) {
 *     return Number((await kv.get(`sv:${userId}`)) ?? 0)
 *   },
 *   async bump(userId, ttlSeconds) {
 *     const version = Math.max(Number((await kv.get(`sv:${userId}`)) ?? 0) + 1, Date.now())
 *     await kv.put(`sv:${userId}`, String(version), { expirationTtl: ttlSeconds })
 *     return version
 *   },
 * }
 * ```
 */
export interface SessionVersionStore {
  /** The user's version: a token carrying less is revoked. 0 for a user whose sessions were never revoked. */
  get(userId: string, fresh?: boolean): number | Promise<number>
  /** Revokes every session of the user issued until now; the new version lasts `ttlSeconds`. */
  bump(userId: string, ttlSeconds: number): Promise<number>
  /** True for a store that only this instance sees (memory): revoking warns once in production. */
  readonly perInstance?: boolean
}

/** The version a token carries: its claim, or 0 for a token without one (Auth.js's, or issued with revocation off). */
export function versionOf(claims: JWT): number {
  const version = claims[SESSION_VERSION_CLAIM]
  return typeof version === "number" && Number.isFinite(version) ? version : 0
}

/**
 * The user a token's version is looked up under. Versions are kept under `String(userId)`, so a
 * finite number (a `jwt` callback's `token.sub = user.id` on SERIAL ids) is keyed as its
 * decimal string, and `revokeSessions(42)` and `revokeSessions("42")` both reach it; the token
 * itself keeps the number the app wrote. Undefined for a token without a subject, which names no
 * user. Null for a subject of any other type: no revocation can name it, so it must be refused,
 * not honoured (honoured, it would be a session nothing can revoke).
 */
export function revocationKeyOf(claims: JWT): string | null | undefined {
  const sub: unknown = claims.sub
  if (sub === undefined) return undefined
  if (typeof sub === "string") return sub
  return typeof sub === "number" && Number.isFinite(sub) ? String(sub) : null
}

/**
 * Whether a decoded session token was revoked: its user's sessions were revoked after it was
 * issued. `getToken` has no store, so it cannot tell (it decodes, as Auth.js's does); code that
 * reads tokens with it and must honour revocations asks this after, with the store it passed to
 * `createAuth`. Honours a token without a subject, which names no user; a subject that is neither
 * a string nor a number reads as revoked (no revocation could name it). Asks the store as a JWT
 * read does (its local copy, when it keeps one); a store that cannot answer throws.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import { getToken } from "latchkey/jwt"
 * import { isRevokedToken, memorySessionVersions } from "latchkey/adapters"
 * const versions = memorySessionVersions() // the store passed as session.revocationStore
 * export async function GET(request: Request) {
 *   const token = await getToken({ req: request })
 *   if (!token || (await isRevokedToken(versions, token))) return new Response("Unauthorized", { status: 401 })
 *   return Response.json({ user: token.sub })
 * }
 * ```
 */
export async function isRevokedToken(store: SessionVersionStore, token: JWT): Promise<boolean> {
  const userId = revocationKeyOf(token)
  if (userId === undefined) return false
  return userId === null || versionOf(token) < (await store.get(userId))
}

/** The version `bump` sets: the time in milliseconds, or one above `current` when the clock is not past it. */
export function nextVersion(current: number): number {
  return Math.max(current + 1, Date.now())
}

interface Entry {
  version: number
  /** Milliseconds since the epoch after which every token older than `version` has expired anyway. */
  until: number
}

/**
 * A {@link SessionVersionStore} in this process's memory: what JWT sessions use when
 * `session.revocationStore` is not set. A revocation reaches the instance it is made on only, so an
 * app that runs several instances shares versions with `redisSessionVersions` (`latchkey/redis`);
 * in production, the first revocation through this store logs a warning saying so. A user's entry
 * is kept as long as the tokens it revokes could live, and dropped after; entries are never
 * evicted sooner, since forgetting one would bring revoked sessions back.
 *
 * Exported from `latchkey/adapters`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memorySessionVersions } from "latchkey/adapters"
 * import GitHub from "latchkey/providers/github"
 * export const { handler, auth, revokeSessions } = createAuth({
 *   providers: [GitHub],
 *   session: { strategy: "jwt", revocationStore: memorySessionVersions() }, // the default, said out loud
 * })
 * ```
 */
export function memorySessionVersions(): SessionVersionStore & { readonly size: number } {
  const entries = new Map<string, Entry>()
  /** Drops lapsed entries once the Map has doubled since the last sweep: amortised, never per read. */
  let sweepAt = 1024
  const sweep = (now: number) => {
    for (const [userId, entry] of entries) if (entry.until <= now) entries.delete(userId)
    sweepAt = Math.max(1024, entries.size * 2)
  }
  return {
    perInstance: true,
    get size() {
      return entries.size
    },
    get(userId) {
      const entry = entries.get(userId)
      return entry === undefined || entry.until <= Date.now() ? 0 : entry.version
    },
    async bump(userId, ttlSeconds) {
      const now = Date.now()
      const entry = entries.get(userId)
      const version = nextVersion(entry === undefined || entry.until <= now ? 0 : entry.version)
      entries.set(userId, { version, until: now + ttlSeconds * 1000 })
      if (entries.size >= sweepAt) sweep(now)
      return version
    },
  }
}
