/**
 * The rate-limit store on Redis: every instance of the app counts against one number per key. A
 * consume is one Lua script, so one round trip and one atomic step: INCR the key, start its window
 * (PEXPIRE) when the count is new or has lost its expiry, and answer the count and the window's
 * remaining milliseconds. Two instances consuming at once get two different counts, so under any
 * concurrency exactly `limit` attempts pass a window. An attempt's keys (the ceiling, the route's
 * client, the identifier) go in one script: one round trip per attempt, not one per key.
 */
import { InvalidOptionError } from "../errors.js"
import type { RateLimitCount, RateLimitKey, RateLimitStore } from "../rate-limits/types.js"
import { commandSender, wholeMs, withDeadline, type RedisCommandClient } from "./command.js"

/**
 * For each key, INCR, then set its window (ARGV at the key's place, in ms) when the key has no
 * expiry (a new key, or one persisted by hand); answers count, ms left, for each key in order.
 * One script for one key or for all of an attempt's keys: Redis runs it as one atomic step.
 */
const CONSUME_SCRIPT = `local answers = {}
for index, key in ipairs(KEYS) do
  local count = redis.call("INCR", key)
  local ttl = redis.call("PTTL", key)
  if ttl < 0 then
    redis.call("PEXPIRE", key, ARGV[index])
    ttl = tonumber(ARGV[index])
  end
  answers[#answers + 1] = count
  answers[#answers + 1] = ttl
end
return answers`

/**
 * A {@link RateLimitStore} on the app's own Redis client (ioredis, or node-redis), shared by every
 * instance: pass it as `rateLimits: rateLimits({ store })`. Each attempt is one `EVAL` (one round trip) for all
 * its keys. Keys start with `prefix` (default `{latchkey:rl}:`), then the route and a hashed identifier or a
 * client address. The braces are a Redis Cluster hash tag: a cluster runs one script only on keys of one slot,
 * and every key with the same tag has the same slot. A prefix of your own needs one too on a cluster.
 * A command Redis has not answered within `timeoutMs` (default 1 000) counts as a failed store: the
 * attempt goes on unlimited and the error is logged, as when Redis is down.
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { createAuth } from "latchkey"
 * import { rateLimits } from "latchkey/rate-limits"
 * import { redisRateLimitStore } from "latchkey/redis"
 * import GitHub from "latchkey/providers/github"
 * const redis = new Redis(process.env.REDIS_URL!)
 * export const { handler, auth } = createAuth({ providers: [GitHub], rateLimits: rateLimits({ store: redisRateLimitStore(redis) }) })
 * ```
 */
export function redisRateLimitStore(client: RedisCommandClient, options: { prefix?: string; timeoutMs?: number } = {}): RateLimitStore {
  const prefix = options.prefix ?? "{latchkey:rl}:"
  if (typeof prefix !== "string") throw new InvalidOptionError("prefix", "prefix must be a string.")
  const command = withDeadline(commandSender(client, "redisRateLimitStore"), wholeMs(options.timeoutMs, "timeoutMs", 1_000, 1))
  /** One EVAL counting every key; its answer checked to be a count and a window for each. */
  async function consumeMany(keys: readonly RateLimitKey[]): Promise<RateLimitCount[]> {
    const answer = await command(["EVAL", CONSUME_SCRIPT, String(keys.length), ...keys.map(({ key }) => prefix + key), ...keys.map(({ rule }) => String(rule.windowSeconds * 1000))])
    const numbers = Array.isArray(answer) ? answer.map(Number) : []
    if (numbers.length !== keys.length * 2 || !numbers.every(Number.isFinite)) throw new TypeError("the rate-limit script answered something other than a count and a window per key")
    return keys.map((_, index) => ({ count: numbers[index * 2]!, resetInMs: numbers[index * 2 + 1]! }))
  }
  return {
    async consume(key, rule) {
      return (await consumeMany([{ key, rule }]))[0]!
    },
    consumeMany,
    async clear(key) {
      await command(["DEL", prefix + key])
    },
  }
}
