/**
 * The built-in store: counts in a Map in this process, bounded. Each key holds one counter and the
 * end of its window; a key whose window has ended starts again at 1. The Map never holds more
 * than `maxKeys` counters: a spray of random addresses or IPs would otherwise grow it until the
 * process dies. So a full store forgets one counter per new key, and which one is what an attacker
 * can buy with a spray (nearly free: the gate counts a POST before the route checks its CSRF
 * token). It forgets, in this order:
 *
 * 1. a cleared or expired counter (it holds nothing: its next attempt starts at 1 anyway);
 * 2. the oldest counter at 1 (one attempt: all a spray's keys ever reach), while counters at 1
 *    fill at least half the store;
 * 3. else the counter with the lowest count, the oldest at that count first.
 *
 * What that leaves an attacker: a spray of one-hit keys only ever pushes out counters at 1. A
 * counter at 1 outlives at least `ceil(maxKeys / 2) - 1` new keys after it, whatever else the
 * store holds. A counter at c ≥ 2 is forgotten only when the store holds more than
 * `maxKeys / 2` counters, in their windows, all at c or more, and it is the oldest at the lowest
 * count: at least c × maxKeys / 2 attempts counted within those windows (10 000 × c with the
 * default bound). An account's budget of n guesses per window thus costs at least maxKeys / 2
 * requests per guess beyond it (10 000 a guess, against about 2 200 when the oldest counters under
 * their limit went first). Counts are per instance: apps that run several instances share one
 * count through `latchkey/redis`.
 *
 * @module
 */
import { InvalidOptionError } from "../errors.js"
import type { RateLimitCount, RateLimitKey, RateLimitRule, RateLimitStore } from "./types.js"

/** Enough for every live key of a busy single instance, in a few MB at most. */
const DEFAULT_MAX_KEYS = 20_000

/** Counts up to this one are told apart when choosing what to forget; higher ones rank as equal. */
const TOP_COUNT = 64

/** Window lengths kept in order of expiry; a store asked for more (no limiter does) keeps the rest in one list, in order of arrival. */
const WINDOW_LISTS = 16

/**
 * One key's counter, linked into two circular lists without allocating: the list of its count
 * (by when it reached that count) and the list of its window length (by when its window ends).
 * A list's head is a counter too (key ""), so linking and unlinking never test for an end.
 */
interface Counter {
  key: string
  count: number
  resetAt: number
  prev: Counter
  next: Counter
  older: Counter
  newer: Counter
}

/** A list's head: a counter that links to itself. */
function listHead(): Counter {
  const head = { key: "", count: 0, resetAt: 0, prev: undefined, next: undefined, older: undefined, newer: undefined } as unknown as Counter
  head.prev = head.next = head.older = head.newer = head
  return head
}

function linkCount(head: Counter, counter: Counter): void {
  counter.prev = head.prev
  counter.next = head
  head.prev.next = counter
  head.prev = counter
}

function unlinkCount(counter: Counter): void {
  counter.prev.next = counter.next
  counter.next.prev = counter.prev
}

// The window list's pair of the two above, over `older`/`newer`: written out rather than shared
// through a property name, so each access on the consume path stays a fixed property.
function linkWindow(head: Counter, counter: Counter): void {
  counter.older = head.older
  counter.newer = head
  head.older.newer = counter
  head.older = counter
}

function unlinkWindow(counter: Counter): void {
  counter.older.newer = counter.newer
  counter.newer.older = counter.older
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
 * import { memoryRateLimitStore, rateLimits } from "latchkey/rate-limits"
 * import GitHub from "latchkey/providers/github"
 * export const { handler, auth } = createAuth({ providers: [GitHub], rateLimits: rateLimits({ store: memoryRateLimitStore({ maxKeys: 100_000 }) }) })
 * ```
 */
export function memoryRateLimitStore(options: { maxKeys?: number } = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new InvalidOptionError("maxKeys", "maxKeys must be a whole number above 0.")
  /** Counters at 1 go first while they hold at least this many of the store's places. */
  const oneHitRoom = Math.ceil(maxKeys / 2)
  const counters = new Map<string, Counter>()
  // byCount[c]: the counters at c (at TOP_COUNT or more for the last), the oldest to reach it first.
  const byCount = Array.from({ length: TOP_COUNT + 1 }, listHead)
  const oneHits = byCount[1]!
  let oneHitCount = 0
  // Per window length, the counters in order of their window's end; `otherWindows` past WINDOW_LISTS lengths.
  const windowHeads: Counter[] = []
  const otherWindows = listHead()

  function windowOf(windowMs: number): Counter {
    // A head's resetAt holds its window length; a few lengths (the limiter's rules), so a look along them.
    for (const head of windowHeads) if (head.resetAt === windowMs) return head
    if (windowHeads.length >= WINDOW_LISTS) return otherWindows
    const head = listHead()
    head.resetAt = windowMs
    windowHeads.push(head)
    return head
  }

  // A cleared counter stays in the Map at count 0, in no count list (linked to itself) and in the
  // `cleared` list, the first to be forgotten: clearing is what every sign-in that succeeds does, and
  // a Map that deletes and adds one key on every sign-in pays for the holes it leaves (measured:
  // about half a microsecond per sign-in). `size` leaves cleared counters out.
  const cleared = listHead()
  let clearedCount = 0

  /** Takes a counter out of its count list (none for a cleared one) and its window list, with the tallies. */
  function detach(counter: Counter): void {
    unlinkCount(counter)
    unlinkWindow(counter)
    if (counter.count === 1) oneHitCount--
    else if (counter.count === 0) clearedCount--
  }

  function forget(counter: Counter): void {
    counters.delete(counter.key)
    detach(counter)
  }

  /** Frees one place in a full store, in the order the module's comment gives: O(window lengths + TOP_COUNT), no scan of the counters. */
  function forgetOne(now: number): void {
    if (cleared.newer !== cleared) return forget(cleared.newer)
    for (const head of windowHeads) {
      if (head.newer !== head && head.newer.resetAt <= now) return forget(head.newer)
    }
    if (otherWindows.newer !== otherWindows && otherWindows.newer.resetAt <= now) return forget(otherWindows.newer)
    if (oneHitCount >= oneHitRoom || oneHitCount === counters.size) return forget(oneHits.next)
    for (let count = 2; count <= TOP_COUNT; count++) {
      const head = byCount[count]!
      if (head.next !== head) return forget(head.next)
    }
  }

  function count(key: string, rule: RateLimitRule, now: number): RateLimitCount {
    let counter = counters.get(key)
    if (counter !== undefined && counter.resetAt > now) {
      const attempts = ++counter.count
      if (attempts <= TOP_COUNT) {
        unlinkCount(counter)
        linkCount(byCount[attempts]!, counter)
        if (attempts === 2) oneHitCount--
      }
      return { count: attempts, resetInMs: counter.resetAt - now }
    }
    // A new key, or one whose window ended: a counter at 1, the newest of its kinds.
    const windowMs = rule.windowSeconds * 1000
    const window = windowOf(windowMs)
    if (counter === undefined) {
      if (counters.size >= maxKeys) forgetOne(now)
      // Made with every field, so all counters share one shape; linked below.
      counter = { key, count: 1, resetAt: now + windowMs, prev: oneHits, next: oneHits, older: window, newer: window }
      counters.set(key, counter)
    } else {
      detach(counter)
      counter.count = 1
      counter.resetAt = now + windowMs
    }
    // The newest of the counters at 1, and of its window.
    linkCount(oneHits, counter)
    linkWindow(window, counter)
    oneHitCount++
    return { count: 1, resetInMs: windowMs }
  }
  return {
    perInstance: true,
    get size() {
      return counters.size - clearedCount
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
      const counter = counters.get(key)
      if (counter === undefined || counter.count === 0) return
      detach(counter)
      counter.prev = counter.next = counter
      counter.count = 0
      counter.resetAt = 0
      linkWindow(cleared, counter)
      clearedCount++
    },
  }
}
