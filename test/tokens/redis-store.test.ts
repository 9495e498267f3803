// latchkey/redis against the real Redis at 127.0.0.1:6379 (skipped, saying why, when it does not
// answer): the lock is exclusive, released only by its owner, and expires when its holder dies;
// results expire; ioredis and node-redis shaped clients both work; and two app instances sharing
// it refresh a due token once.
import { randomBytes } from "node:crypto"
import Redis from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { redisRefreshStore } from "../../src/redis/index.js"
import { secureApp } from "../security/support.js"
import { probeRedis, refreshingProvider, requestFrom, signedIn } from "./support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider()

const skip = await probeRedis()
if (skip) console.info(`skipped: ${skip}`)

describe.skipIf(skip !== undefined)("redisRefreshStore on a real Redis", () => {
  const prefix = `lk_test_${randomBytes(5).toString("hex")}:`
  let redis: Redis
  beforeAll(() => {
    redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: false, maxRetriesPerRequest: 1 })
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })

  /** The node-redis shape (`sendCommand(args)`), over the same connection. */
  const nodeRedisShaped = () => ({ sendCommand: (args: string[]) => redis.call(args[0]!, ...args.slice(1)) })

  for (const [name, client] of [
    ["ioredis", () => redis],
    ["node-redis (sendCommand)", nodeRedisShaped],
  ] as const) {
    it(`${name}: the lock is exclusive and only its owner releases it`, async () => {
      const store = redisRefreshStore(client(), { prefix })
      const key = `lock:${randomBytes(4).toString("hex")}`
      expect(await store.acquire(key, "a", 10_000)).toBe(true)
      expect(await store.acquire(key, "b", 10_000)).toBe(false)
      await store.release(key, "b")
      expect(await store.acquire(key, "b", 10_000)).toBe(false)
      await store.release(key, "a")
      expect(await store.acquire(key, "b", 10_000)).toBe(true)
      expect(await redis.pttl(`${prefix}${key}`)).toBeGreaterThan(0)
    })

    it(`${name}: a holder that dies blocks no one past its lock's expiry`, async () => {
      const store = redisRefreshStore(client(), { prefix })
      const key = `lock:${randomBytes(4).toString("hex")}`
      expect(await store.acquire(key, "dead", 50)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(await store.acquire(key, "alive", 10_000)).toBe(true)
      // The dead holder, come back, cannot release the lock someone else now holds.
      await store.release(key, "dead")
      expect(await store.acquire(key, "third", 10_000)).toBe(false)
    })

    it(`${name}: results are stored and expire`, async () => {
      const store = redisRefreshStore(client(), { prefix })
      const key = `result:${randomBytes(4).toString("hex")}`
      expect(await store.get(key)).toBeUndefined()
      await store.put(key, "sealed", 10_000)
      expect(await store.get(key)).toBe("sealed")
      const ttl = await redis.pttl(`${prefix}${key}`)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(10_000)
      // Only ever waiting longer than a TTL, so the assertion cannot race the clock.
      const brief = `${key}:brief`
      await store.put(brief, "sealed", 20)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(await store.get(brief)).toBeUndefined()
    })
  }

  it("refuses a client it cannot drive", () => {
    expect(() => redisRefreshStore({} as never)).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION" }))
  })

  it("two app instances sharing it make one refresh for 2 × 25 concurrent reads, and both see the new token", async () => {
    const store = () => providerTokens({ refresh: { store: redisRefreshStore(redis, { prefix }) } })
    const { site, browser } = await signedIn(idp(), { providerTokens: store() })
    const other = secureApp({ providers: [idp().provider()], providerTokens: store() })
    const request = requestFrom(browser)
    const grants = idp().refreshGrants()
    const reads = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? site : other).getAccessToken(request.clone(), "corp")))
    expect(reads).toHaveLength(50)
    expect(idp().refreshGrants() - grants).toBe(1)
    const tokens = new Set(reads)
    expect(tokens.size).toBe(1)
    expect([...tokens][0]).toEqual(expect.any(String))
    // What Redis holds is sealed: no token in it.
    const values = await Promise.all((await redis.keys(`${prefix}latchkey:refresh:result:*`)).map((key) => redis.get(key)))
    expect(values.length).toBeGreaterThan(0)
    for (const value of values) expect(value).not.toContain([...tokens][0] as string)
  })
})
