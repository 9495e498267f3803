/**
 * Session versions on Redis: every instance of the app sees a revocation. A user's version is one
 * key (`prefix` + user id) holding a number, with an expiry as long as the tokens it revokes could
 * live. A read costs at most one `GET`, and usually none: each instance keeps the versions it read
 * for `cacheMs` (default 5 000). A revocation is one `EVAL` that raises the version and its expiry
 * in one atomic step, and updates this instance's copy at once.
 *
 * What the copy costs: on an instance other than the one that revoked, a revoked session is still
 * honoured until that instance's copy of the user's version is `cacheMs` old, so for at most
 * `cacheMs` after the revocation. A sign-in and the confirmed read a lasting change makes (linking
 * an account, registering a passkey) always ask Redis. When Redis does not answer within
 * `timeoutMs` (default 1 000) or fails, a read falls back on this instance's copy however old, and
 * without one the caller decides (JWT reads honour the token and log: see docs/sessions.md).
 */
import type { SessionVersionStore } from "../adapters/session-versions.js"
import { InvalidOptionError } from "../errors.js"
import { commandSender, wholeMs, withDeadline, type RedisCommandClient } from "./command.js"

/**
 * Raises KEYS[1] to max(version + 1, ARGV[1]) (the caller's clock, in ms) and keeps it for the
 * longer of ARGV[2] seconds and what it had left; answers the new version.
 */
const BUMP_SCRIPT = `local version = math.max((tonumber(redis.call("GET", KEYS[1])) or 0) + 1, tonumber(ARGV[1]))
local ttl = math.max(redis.call("TTL", KEYS[1]), tonumber(ARGV[2]))
redis.call("SET", KEYS[1], string.format("%d", version), "EX", ttl)
return string.format("%d", version)`

/**
 * What {@link redisSessionVersions} takes.
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import type { RedisSessionVersionsOptions } from "latchkey/redis"
 * // Ask Redis on every read (no local copy): a revocation reaches every instance at its next read.
 * const immediate: RedisSessionVersionsOptions = { prefix: "myapp:sv:", cacheMs: 0 }
 * ```
 */
export interface RedisSessionVersionsOptions {
  /** Put before every key. Default `latchkey:sv:`. */
  prefix?: string
  /** Milliseconds an instance trusts the version it read for a user; 0 asks Redis on every read. Default 5 000. */
  cacheMs?: number
  /** Users whose versions an instance keeps at once; the oldest tenth goes when full. Default 10 000. */
  maxCached?: number
  /** Milliseconds a read or a revocation waits for Redis before it counts as failed. Default 1 000. */
  timeoutMs?: number
}

interface Copy {
  version: number
  /** Milliseconds since the epoch until which the copy answers without asking Redis. */
  until: number
}

/** A Redis reply as a version: a number or its text; nothing (no key) is 0. */
function versionFrom(reply: unknown): number {
  if (reply === null || reply === undefined) return 0
  const text = typeof reply === "string" || typeof reply === "number" ? String(reply) : new TextDecoder().decode(reply as Uint8Array)
  const version = Number(text)
  if (!Number.isSafeInteger(version) || version < 0) throw new TypeError("a session version key holds something other than a whole number")
  return version
}

/**
 * A {@link adapters!SessionVersionStore} on the app's own Redis client (ioredis, or node-redis),
 * shared by every instance: pass it as `session.revocationStore`, and `revokeSessions(user)` (or a
 * password reset) signs the user's JWT sessions out on every instance, each within `cacheMs`.
 * Keep the keys from eviction (`maxmemory-policy` `noeviction`, or a Redis of its own): an evicted
 * key brings the sessions it revoked back.
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { createAuth } from "latchkey"
 * import { redisSessionVersions } from "latchkey/redis"
 * import GitHub from "latchkey/providers/github"
 * const redis = new Redis(process.env.REDIS_URL!)
 * export const { handler, auth, revokeSessions } = createAuth({
 *   providers: [GitHub],
 *   session: { strategy: "jwt", revocationStore: redisSessionVersions(redis, { cacheMs: 2_000 }) },
 * })
 * ```
 */
export function redisSessionVersions(client: RedisCommandClient, options: RedisSessionVersionsOptions = {}): SessionVersionStore {
  const prefix = options.prefix ?? "latchkey:sv:"
  if (typeof prefix !== "string") throw new InvalidOptionError("prefix", "prefix must be a string.")
  const cacheMs = wholeMs(options.cacheMs, "cacheMs", 5_000, 0)
  const maxCached = wholeMs(options.maxCached, "maxCached", 10_000, 1)
  const timeoutMs = wholeMs(options.timeoutMs, "timeoutMs", 1_000, 1)
  const command = withDeadline(commandSender(client, "redisSessionVersions"), timeoutMs)
  const copies = new Map<string, Copy>()
  /** Reads in flight, one per user: a burst of requests for one user waits on one GET. */
  const reading = new Map<string, Promise<number>>()

  /**
   * Keeps `version` as this instance's copy, and answers it; a fresh copy that is higher stays (a
   * GET sent before this instance's own revocation must not bring the older version back).
   */
  function remember(userId: string, version: number): number {
    if (cacheMs === 0) return version
    const held = copies.get(userId)
    if (held !== undefined && held.version > version && held.until > Date.now()) return held.version
    if (!copies.has(userId) && copies.size >= maxCached) {
      let drop = Math.max(1, Math.floor(maxCached / 10))
      for (const key of copies.keys()) {
        if (drop-- <= 0) break
        copies.delete(key)
      }
    }
    copies.delete(userId)
    copies.set(userId, { version, until: Date.now() + cacheMs })
    return version
  }

  async function read(userId: string, stale: Copy | undefined): Promise<number> {
    try {
      return remember(userId, versionFrom(await command(["GET", prefix + userId])))
    } catch (error) {
      if (stale !== undefined) return stale.version
      throw error
    }
  }

  return {
    get(userId, fresh) {
      const copy = copies.get(userId)
      if (!fresh && copy !== undefined && copy.until > Date.now()) return copy.version
      // A fresh read never falls back on a copy: it is asked for when the answer must be Redis's.
      if (fresh) return read(userId, undefined)
      let pending = reading.get(userId)
      if (pending === undefined) {
        const started: Promise<number> = read(userId, copy).finally(() => reading.get(userId) === started && reading.delete(userId))
        reading.set(userId, (pending = started))
      }
      return pending
    },
    async bump(userId, ttlSeconds) {
      if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) throw new InvalidOptionError("ttlSeconds", "ttlSeconds must be a whole number above 0.")
      const reply = await command(["EVAL", BUMP_SCRIPT, "1", prefix + userId, String(Date.now()), String(ttlSeconds)])
      // A read sent before the revocation must not answer reads that start after it.
      reading.delete(userId)
      return remember(userId, versionFrom(reply))
    },
  }
}
