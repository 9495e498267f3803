/**
 * Which session store an app gets, decided once when `createAuth` settles its options: JWT
 * sessions, database sessions, or hybrid ones (database sessions with `session.cache`). This is
 * the one place that asks "JWT or database?"; everything after calls the `SessionStore` it returns.
 * A strategy that cannot work (database sessions without an adapter, or without its session
 * methods; a cache for JWT sessions) is refused here, before any request. JWT sessions also get
 * their session version store here (`session.revocationStore`: memory unless the app names one),
 * which makes a user's sessions revocable; so do hybrid sessions, for their cache copies.
 */
import { InvalidOptionError } from "../errors.js"
import { withAdapterMethods, type Adapter } from "./adapter.js"
import { databaseSessions } from "./database-sessions.js"
import { jwtSessions } from "./jwt-sessions.js"
import { SESSION_METHODS } from "./requirements.js"
import type { SessionStore } from "./session-store.js"
import { memorySessionVersions, type SessionVersionStore } from "./session-versions.js"

/** The `session` options that choose a store. */
export interface SessionStoreOptions {
  strategy?: "jwt" | "database"
  cache?: { maxAge: number }
  revocationStore?: SessionVersionStore | false
}

/** The settled store, how long a hybrid session's cached copy is trusted (0: not hybrid), and where JWT session versions live. */
export interface SettledSessionStore {
  sessions: SessionStore
  sessionCacheMaxAge: number
  sessionVersions: SessionVersionStore | undefined
}

/** JWT sessions' version store: the app's, memory by default, none with `false`. */
function versionStoreOf(option: SessionVersionStore | false | undefined): SessionVersionStore | undefined {
  if (option === undefined) return memorySessionVersions()
  if (option === false) return undefined
  if (typeof option?.get !== "function" || typeof option.bump !== "function") {
    throw new InvalidOptionError("session.revocationStore", "session.revocationStore must be a session version store (memorySessionVersions(), redisSessionVersions(client)) or false.")
  }
  return option
}

/** Seconds from an option: a whole number, or `fallback` when unset. */
export function wholeSeconds(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new InvalidOptionError(option, `${option} must be a whole number of seconds.`)
  return value as number
}

/**
 * The store for these options, and how long a hybrid session's cached copy is trusted (0: not
 * hybrid). Default: database sessions with an adapter, else JWT, as in Auth.js.
 */
export function settleSessionStore(options: SessionStoreOptions | undefined, adapter: Adapter | undefined): SettledSessionStore {
  const strategy = options?.strategy ?? (adapter ? "database" : "jwt")
  if (strategy !== "jwt" && strategy !== "database") throw new InvalidOptionError("session.strategy", 'session.strategy must be "jwt" or "database".')
  const cache = options?.cache
  if (strategy === "jwt") {
    if (cache !== undefined) throw new InvalidOptionError("session.cache", "session.cache is for database sessions.")
    return { sessions: jwtSessions, sessionCacheMaxAge: 0, sessionVersions: versionStoreOf(options?.revocationStore) }
  }
  if (!adapter) throw new InvalidOptionError("session.strategy", 'database sessions need an adapter; pass one, or use strategy "jwt".')
  const sessionCacheMaxAge = wholeSeconds(cache?.maxAge, "session.cache.maxAge", 0)
  if (sessionCacheMaxAge === 0 && options?.revocationStore !== undefined) {
    throw new InvalidOptionError("session.revocationStore", "session.revocationStore is for JWT sessions and session.cache: a database session is revoked by deleting its row.")
  }
  withAdapterMethods(adapter, SESSION_METHODS, "database sessions")
  // Hybrid sessions: the version reaches the cache copies that outlive a deleted row.
  return { sessions: databaseSessions, sessionCacheMaxAge, sessionVersions: sessionCacheMaxAge > 0 ? versionStoreOf(options?.revocationStore) : undefined }
}
