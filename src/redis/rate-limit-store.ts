/**
 * The rate-limit store on Redis: every instance of the app counts against one number per key. A
 * consume is one Lua script, so one round trip and one atomic step: INCR the key, start its window
 * (PEXPIRE) when the count is new or has lost its expiry, and answer the count and the window's
 * remaining milliseconds. Two instances consuming at once get two different counts, so under any
 * concurrency exactly `limit` attempts pass a window.
 */
import { InvalidOptionError } from "../errors.js"
import type { RateLimitStore } from "../rate-limits/types.js"
import { commandSender, type RedisCommandClient } from "./command.js"

/** INCR, then set the window when the key has no expiry (a new key, or one persisted by hand); answers { count, ms left }. */
const CONSUME_SCRIPT = `local count = redis.call("INCR", KEYS[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`

/**
 * A {@link RateLimitStore} on the app's own Redis client (ioredis, or node-redis), shared by every
 * instance: pass it as `rateLimits: { store }`. Each consume is one `EVAL` (one round trip). Keys
 * start with `prefix` (default `latchkey:rl:`), then the route and a hashed identifier or a client
 * address.
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { createAuth } from "latchkey"
 * import { redisRateLimitStore } from "latchkey/redis"
 * import GitHub from "latchkey/providers/github"
 * const redis = new Redis(process.env.REDIS_URL!)
 * export const { handler, auth } = createAuth({ providers: [GitHub], rateLimits: { store: redisRateLimitStore(redis) } })
 * ```
 */
export function redisRateLimitStore(client: RedisCommandClient, options: { prefix?: string } = {}): RateLimitStore {
  const prefix = options.prefix ?? "latchkey:rl:"
  if (typeof prefix !== "string") throw new InvalidOptionError("prefix", "prefix must be a string.")
  const command = commandSender(client, "redisRateLimitStore")
  return {
    async consume(key, rule) {
      const answer = await command(["EVAL", CONSUME_SCRIPT, "1", prefix + key, String(rule.windowSeconds * 1000)])
      const [count, ttl] = Array.isArray(answer) ? answer.map(Number) : []
      if (!Number.isFinite(count) || !Number.isFinite(ttl)) throw new TypeError("the rate-limit script answered something other than [count, ttl]")
      return { count: count!, resetInMs: ttl! }
    },
    async clear(key) {
      await command(["DEL", prefix + key])
    },
  }
}
