/**
 * The built-in store: counts in a Map in this process, bounded. Each key holds one counter and the
 * end of its window; a key whose window has ended starts again at 1. The Map never holds more
 * than `maxKeys` counters: a spray of random addresses or IPs would otherwise grow it until the
 * process dies, so a full Map drops its expired counters, then its oldest ones under their limit,
 * and locked-out ones last (Map order is insertion order, and a counter is re-inserted when its
 * window restarts). Counts are per
 * instance: apps that run several instances share one count through `latchkey/redis`.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { RateLimitCount, RateLimitKey, RateLimitRule, RateLimitStore } from "./types.js"

/** Enough for every live key of a busy single instance, in a few MB at most. */
const DEFAULT_MAX_KEYS = 20_000

interface Counter {
  count: number
  limit: number
  resetAt: number
}

/**
 * Makes room in a full Map, in one pass per kind: every expired counter goes, then the oldest
 * counters still under their limit, and only then the oldest locked ones, until a tenth of the
 * room is free. A spray adds counters at 1, so it pushes out its own kind before any lockout.
 * Freeing a tenth at once matters: a Map keeps the slots of deleted entries until it rehashes, and
 * an iteration from its start walks over them, so evicting one counter per insert would make each
 * insert walk the whole table.
 */
function makeRoom(counters: Map<string, Counter>, maxKeys: number, now: number): void {
  let excess = counters.size - (maxKeys - Math.max(1, Math.floor(maxKeys / 10)))
  for (const pass of [(counter: Counter) => counter.resetAt <= now, (counter: Counter) => counter.count < counter.limit, () => true]) {
    for (const [key, counter] of counters) {
      if (excess <= 0) return
      if (pass(counter)) {
        counters.delete(key)
        excess--
      }
    }
  }
}

/**
 * The memory store: a {@link RateLimitStore} that answers counts at once, not promises, and says
 * how many counters it holds.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { memoryRateLimitStore, type MemoryRateLimitStore } from "latchkey/rate-limits"
 * const store: MemoryRateLimitStore = memoryRateLimitStore()
 * const held: number = store.size
 * ```
 */
export interface MemoryRateLimitStore extends RateLimitStore {
  consume(key: string, rule: RateLimitRule): RateLimitCount
  consumeMany(keys: readonly RateLimitKey[]): RateLimitCount[]
  clear(key: string): void
  readonly size: number
}

/**
 * A {@link RateLimitStore} in this process's memory, holding at most `maxKeys` counters (default
 * 20 000). What `createAuth` uses when `rateLimits.store` is not set.
 *
 * Exported from `latchkey/rate-limits`.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * import { memoryRateLimitStore } from "latchkey/rate-limits"
 * import GitHub from "latchkey/providers/github"
 * export const { handler, auth } = createAuth({ providers: [GitHub], rateLimits: { store: memoryRateLimitStore({ maxKeys: 100_000 }) } })
 * ```
 */
export function memoryRateLimitStore(options: { maxKeys?: number } = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new InvalidOptionError("maxKeys", "maxKeys must be a whole number above 0.")
  const counters = new Map<string, Counter>()
  function count(key: string, rule: RateLimitRule, now: number): RateLimitCount {
    let counter = counters.get(key)
    if (counter === undefined || counter.resetAt <= now) {
      if (counter !== undefined) counters.delete(key)
      else if (counters.size >= maxKeys) makeRoom(counters, maxKeys, now)
      counter = { count: 0, limit: rule.limit, resetAt: now + rule.windowSeconds * 1000 }
      counters.set(key, counter)
    }
    counter.count++
    return { count: counter.count, resetInMs: counter.resetAt - now }
  }
  return {
    perInstance: true,
    get size() {
      return counters.size
    },
    // Answers, not promises: the limiter awaits only what is really a promise, so counting in
    // memory costs an attempt no microtask turns.
    consume(key, rule) {
      return count(key, rule, Date.now())
    },
    // One clock read for an attempt's keys.
    consumeMany(keys) {
      const now = Date.now()
      return keys.map(({ key, rule }) => count(key, rule, now))
    },
    clear(key) {
      counters.delete(key)
    },
  }
}
