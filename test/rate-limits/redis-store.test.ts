// The Redis store on the real server (127.0.0.1:6379): one EVAL per attempt, whatever its number
// of keys (counted on the client), and two app instances sharing one count, so that under concurrency exactly the
// configured number of attempts gets through across both. Each run uses its own key prefix.
import Redis from "ioredis"
import { describe, expect, it } from "vitest"
import { redisRateLimitStore } from "../../src/redis/index.js"
import { redisForSuite } from "../setup/services.js"
import { APP, csrfFor, limitedApp } from "./support.js"

let redis: Redis | undefined
const prefix = `latchkey-test:rl:${crypto.randomUUID()}:`

redisForSuite(prefix, (client) => (redis = client))

/** The app's client, counting the commands sent through it: each is one round trip. */
function counting(client: Redis) {
  const sent: string[] = []
  return { sent, client: { call: (name: string, ...args: (string | number)[]) => (sent.push(name), client.call(name, ...args)) } }
}

describe("redisRateLimitStore", () => {
  it("an attempt's keys are one round trip: one EVAL counts each under its own window, in order", async (test) => {
    if (!redis) return test.skip()
    const { sent, client } = counting(redis)
    const store = redisRateLimitStore(client, { prefix })
    const keys = [
      { key: "many:ceiling", rule: { limit: 120, windowSeconds: 60 } },
      { key: "many:client", rule: { limit: 30, windowSeconds: 300 } },
      { key: "many:identifier", rule: { limit: 10, windowSeconds: 900 } },
    ]
    await store.consume("many:client", { limit: 30, windowSeconds: 300 })
    sent.length = 0
    const counts = await store.consumeMany!(keys)
    expect(sent).toEqual(["EVAL"])
    expect(counts.map(({ count }) => count)).toEqual([1, 2, 1])
    // Each window is its own key's: a minute, five minutes (started by the first consume), fifteen minutes.
    expect(counts[0]!.resetInMs).toBeGreaterThan(59_000)
    expect(counts[0]!.resetInMs).toBeLessThanOrEqual(60_000)
    expect(counts[1]!.resetInMs).toBeGreaterThan(299_000)
    expect(counts[2]!.resetInMs).toBeGreaterThan(899_000)
    expect(await redis.pttl(`${prefix}many:identifier`)).toBeGreaterThan(899_000)
    expect((await store.consumeMany!(keys)).map(({ count }) => count)).toEqual([2, 3, 2])
  })

  it("a script answer that is not a count and a window per key is an error, never a pass", async () => {
    const store = redisRateLimitStore({ call: async () => [1, 60_000] })
    await expect(store.consumeMany!([{ key: "a", rule: { limit: 1, windowSeconds: 60 } }, { key: "b", rule: { limit: 1, windowSeconds: 60 } }])).rejects.toThrow(/a count and a window per key/)
  })

  it("by default an attempt's keys share one Redis Cluster hash tag, so a cluster runs its one script", async () => {
    const scripts: string[][] = []
    const store = redisRateLimitStore({ call: async (...args: (string | number)[]) => (scripts.push(args.map(String)), [1, 60_000, 1, 300_000]) })
    await store.consumeMany!([{ key: "all:c:198.51.100.7", rule: { limit: 120, windowSeconds: 60 } }, { key: "credentials:i:abc", rule: { limit: 10, windowSeconds: 300 } }])
    const [, , keyCount, ...rest] = scripts[0]!
    const keys = rest.slice(0, Number(keyCount))
    // A cluster hashes only what is inside the first {...}: the same tag, the same slot.
    expect(keys.map((key) => /\{([^}]*)\}/.exec(key)?.[1])).toEqual(["latchkey:rl", "latchkey:rl"])
  })

  it("one consume is one round trip: one EVAL that counts and starts the window", async (test) => {
    if (!redis) return test.skip()
    const { sent, client } = counting(redis)
    const store = redisRateLimitStore(client, { prefix })
    const first = await store.consume("round-trip", { limit: 3, windowSeconds: 60 })
    expect(sent).toEqual(["EVAL"])
    expect(first.count).toBe(1)
    expect(first.resetInMs).toBeGreaterThan(59_000)
    expect((await store.consume("round-trip", { limit: 3, windowSeconds: 60 })).count).toBe(2)
    expect(sent).toEqual(["EVAL", "EVAL"])
    expect(await redis.pttl(`${prefix}round-trip`)).toBeGreaterThan(0)
    await store.clear("round-trip")
    expect((await store.consume("round-trip", { limit: 3, windowSeconds: 60 })).count).toBe(1)
  })

  it("two instances share one count: 40 concurrent wrong passwords from 40 IPs, exactly 10 reach authorize", async (test) => {
    if (!redis) return test.skip()
    const { sent, client } = counting(redis)
    const store = redisRateLimitStore(client, { prefix: `${prefix}shared:` })
    const one = limitedApp({ limits: { store } })
    const two = limitedApp({ limits: { store } })
    const instances = [one, two]
    // Tokens first (they count only toward each IP's ceiling), then every post at once.
    const tokens = await Promise.all(Array.from({ length: 40 }, (_, index) => csrfFor(instances[index % 2]!.auth, { "cf-connecting-ip": `198.51.100.${index + 1}` })))
    const before = sent.length
    const answers = await Promise.all(
      tokens.map(({ csrfToken, cookie }, index) =>
        instances[index % 2]!.auth.handler(
          new Request(`${APP}/auth/callback/credentials`, {
            method: "POST",
            headers: { "cf-connecting-ip": `198.51.100.${index + 1}`, cookie, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ email: "ada@example.com", password: "wrong", csrfToken }).toString(),
          }),
        ),
      ),
    )
    expect(one.seen.authorize + two.seen.authorize).toBe(10)
    expect(one.seen.authorize).toBeGreaterThan(0)
    expect(two.seen.authorize).toBeGreaterThan(0)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30)
    // Three keys per attempt (the ceiling, the route's client, the address), counted by one EVAL.
    expect(sent.length - before).toBe(40)
  })
})
