// The built-in memory store: a counter per key and window, and a bound on how many it holds. A
// spray of a million random keys (what many IPs or made-up addresses add) must leave it at its
// bound; the process's RSS before and after is printed for the record.
import { describe, expect, it } from "vitest"
import { memoryRateLimitStore } from "../../src/rate-limits/memory-store.js"

const RULE = { limit: 3, windowSeconds: 60 }

describe("memoryRateLimitStore", () => {
  it("counts per key within a window, and clear starts a key again", async () => {
    const store = memoryRateLimitStore()
    expect((await store.consume("a", RULE)).count).toBe(1)
    expect((await store.consume("a", RULE)).count).toBe(2)
    expect((await store.consume("b", RULE)).count).toBe(1)
    const third = await store.consume("a", RULE)
    expect(third.count).toBe(3)
    expect(third.resetInMs).toBeGreaterThan(0)
    expect(third.resetInMs).toBeLessThanOrEqual(60_000)
    await store.clear("a")
    expect((await store.consume("a", RULE)).count).toBe(1)
  })

  it("consumeMany counts each key as consume does, in order, and shares the one counter per key", () => {
    const store = memoryRateLimitStore()
    const client = { key: "credentials:c:198.51.100.7", rule: { limit: 30, windowSeconds: 300 } }
    const identifier = { key: "credentials:i:abc", rule: { limit: 10, windowSeconds: 900 } }
    expect(store.consume(client.key, client.rule).count).toBe(1)
    const counts = store.consumeMany([client, identifier])
    expect(counts.map(({ count }) => count)).toEqual([2, 1])
    expect(counts[1]!.resetInMs).toBeGreaterThan(899_000)
    expect(store.consume(identifier.key, identifier.rule).count).toBe(2)
    expect(store.consumeMany([])).toEqual([])
  })

  it("a window that ended starts again at 1", async () => {
    const store = memoryRateLimitStore()
    const realNow = Date.now
    try {
      const start = realNow()
      Date.now = () => start
      await store.consume("a", RULE)
      await store.consume("a", RULE)
      Date.now = () => start + 60_001
      expect((await store.consume("a", RULE)).count).toBe(1)
    } finally {
      Date.now = realNow
    }
  })

  it("a spray of 1M random keys leaves it at its bound (RSS printed)", async () => {
    const store = memoryRateLimitStore({ maxKeys: 20_000 })
    globalThis.gc?.()
    const before = process.memoryUsage().rss
    for (let index = 0; index < 1_000_000; index++) await store.consume(`credentials:i:${Math.random().toString(36).slice(2)}${index}`, RULE)
    globalThis.gc?.()
    const after = process.memoryUsage().rss
    console.log(`memory store after 1M random keys: ${store.size} counters held (bound 20000); RSS ${(before / 2 ** 20).toFixed(1)} MB -> ${(after / 2 ** 20).toFixed(1)} MB`)
    expect(store.size).toBeLessThanOrEqual(20_000)
    expect(store.size).toBeGreaterThanOrEqual(18_000)
  }, 60_000)

  it("a full store drops an expired counter before a live one", async () => {
    const store = memoryRateLimitStore({ maxKeys: 2 })
    const realNow = Date.now
    try {
      const start = realNow()
      Date.now = () => start
      await store.consume("short", { limit: 1, windowSeconds: 1 })
      await store.consume("long", { limit: 1, windowSeconds: 600 })
      Date.now = () => start + 2000
      await store.consume("new", RULE)
      // "long" is still counted: its second attempt is its second.
      expect((await store.consume("long", { limit: 1, windowSeconds: 600 })).count).toBe(2)
    } finally {
      Date.now = realNow
    }
  })

  it("a spray cannot push out a lockout: counters under their limit go first", async () => {
    const store = memoryRateLimitStore({ maxKeys: 1000 })
    const rule = { limit: 10, windowSeconds: 900 }
    for (let index = 0; index < 11; index++) await store.consume("credentials:i:victim", rule)
    for (let index = 0; index < 100_000; index++) await store.consume(`credentials:i:spray${index}`, rule)
    expect((await store.consume("credentials:i:victim", rule)).count).toBe(12)
  })
})
