/**
 * `latchkey/redis`: the stores for apps that run several instances (provider-token refreshes,
 * rate-limit counts, JWT session versions), over the Redis client the app already has (ioredis, or
 * node-redis), so latchkey itself depends on no Redis library. The refresh lock is `SET key owner NX PX ttl`, released only by its owner (a compare-and-
 * delete script), so a holder that dies blocks the others only until its lock expires; results are
 * plain keys with a `PX` expiry, sealed with the app's secret before they get here.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { RefreshStore } from "../provider-tokens/refresh-store.js"
import { commandSender, type RedisCommandClient } from "./command.js"

export type { RedisCommandClient } from "./command.js"
export { redisRateLimitStore } from "./rate-limit-store.js"
export { redisSessionVersions, type RedisSessionVersionsOptions } from "./session-versions.js"

/** Deletes the lock only when it is still the caller's: a lock that expired and was retaken by another instance stays. */
const RELEASE_SCRIPT = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'

/**
 * A `RefreshStore` on Redis, shared by every instance of the app: pass it as
 * `providerTokens({ refresh: { store } })`, and each provider refresh token is exchanged once across
 * all of them. `prefix` is put before every key (default none; keys start `latchkey:refresh:`).
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { createAuth } from "latchkey"
 * import { providerTokens } from "latchkey/provider-tokens"
 * import { redisRefreshStore } from "latchkey/redis"
 * import Google from "latchkey/providers/google"
 * const redis = new Redis(process.env.REDIS_URL!)
 * export const { handler, auth, getAccessToken } = createAuth({
 *   providers: [Google],
 *   providerTokens: providerTokens({ refresh: { store: redisRefreshStore(redis) } }),
 * })
 * // node-redis works the same: redisRefreshStore(await createClient({ url }).connect())
 * ```
 */
export function redisRefreshStore(client: RedisCommandClient, options: { prefix?: string } = {}): RefreshStore {
  const prefix = options.prefix ?? ""
  if (typeof prefix !== "string") throw new InvalidOptionError("prefix", "prefix must be a string.")
  const command = commandSender(client, "redisRefreshStore")
  const ms = (ttl: number) => String(Math.max(1, Math.ceil(ttl)))
  return {
    async acquire(key, owner, ttlMs) {
      return (await command(["SET", prefix + key, owner, "NX", "PX", ms(ttlMs)])) === "OK"
    },
    async release(key, owner) {
      await command(["EVAL", RELEASE_SCRIPT, "1", prefix + key, owner])
    },
    async put(key, value, ttlMs) {
      await command(["SET", prefix + key, value, "PX", ms(ttlMs)])
    },
    async get(key) {
      const value = await command(["GET", prefix + key])
      if (value === null || value === undefined) return undefined
      return typeof value === "string" ? value : new TextDecoder().decode(value as Uint8Array)
    },
  }
}
