// Session versions on the real Redis (127.0.0.1:6379): two createAuth instances share one store, as
// two servers of one app do. The attack: a user's session cookie, signed in on instance A, is still
// honoured by instance B after A revoked the user's sessions. With the store, B signs it out (at
// once without a local copy; within cacheMs with one), a read costs at most one GET (none when the
// copy is fresh), and a revocation one EVAL. Each run uses its own key prefix.
import Redis from "ioredis"
import { afterEach, describe, expect, it, vi } from "vitest"
import { redisSessionVersions } from "../../src/redis/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { RedisCommandClient } from "../../src/redis/command.js"
import { APP, app, csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { redisForSuite } from "../setup/services.js"

let redis: Redis | undefined
const prefix = `latchkey-test:sv:${crypto.randomUUID()}:`

redisForSuite(prefix, (client) => (redis = client))

afterEach(() => {
  vi.useRealTimers()
})

/** The app's client, counting the commands sent through it: each is one round trip. */
function counting(client: Redis) {
  const sent: string[] = []
  return { sent, client: { call: (name: string, ...args: (string | number)[]) => (sent.push(name), client.call(name, ...args)) } }
}

const people = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username) }) })

/** Two instances of one app (same secret) sharing `client`'s versions under `keys`. */
function twoInstances(client: RedisCommandClient, keys: string, cacheMs?: number) {
  const instance = () => app({ providers: [people()], session: { strategy: "jwt", revocationStore: redisSessionVersions(client, { prefix: keys, cacheMs }) } })
  return [instance(), instance()] as const
}

async function signedIn(on: ReturnType<typeof app>, username: string): Promise<TestBrowser> {
  const browser = new TestBrowser(undefined, on.dispatch)
  await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username })
  return browser
}

/** GET /session on `on` with the cookies `browser` holds (for APP): as if the load balancer sent it there. */
async function sessionAt(on: ReturnType<typeof app>, browser: TestBrowser) {
  const cookie = [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
  const response = await on.handler(new Request(`${APP}/auth/session`, { headers: { cookie } }))
  return { session: (await response.json()) as Record<string, any> | null, cleared: response.headers.getSetCookie().some((line) => /^authjs\.session-token=;/.test(line)) }
}

describe("redisSessionVersions: two instances", () => {
  it("a revocation on instance A signs the session out on instance B (cacheMs 0: at B's next read)", async (test) => {
    if (!redis) return test.skip()
    const [a, b] = twoInstances(redis, `${prefix}now:`, 0)
    const laptop = await signedIn(a, "ada")
    const other = await signedIn(a, "eve")
    expect((await sessionAt(b, laptop)).session).toMatchObject({ user: { name: "ada" } })
    await a.revokeSessions("u-ada")
    const answer = await sessionAt(b, laptop)
    expect(answer.session).toBeNull()
    expect(answer.cleared).toBe(true)
    expect(await b.auth(new Request(APP, { headers: { cookie: [...laptop.cookies(APP)].map(([n, v]) => `${n}=${v}`).join("; ") } }))).toBeNull()
    expect((await sessionAt(b, other)).session).toMatchObject({ user: { name: "eve" } })
    // Signing in again, on either instance, is a live session on both.
    const again = await signedIn(b, "ada")
    expect((await sessionAt(a, again)).session).toMatchObject({ user: { name: "ada" } })
  })

  it("with a local copy, B honours the revoked session for at most cacheMs, then signs it out; A never does", async (test) => {
    if (!redis) return test.skip()
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    const [a, b] = twoInstances(redis, `${prefix}cached:`, 5_000)
    const laptop = await signedIn(a, "ada")
    expect((await sessionAt(b, laptop)).session).not.toBeNull() // B now holds a copy of ada's version
    await a.revokeSessions("u-ada")
    expect((await sessionAt(a, laptop)).session).toBeNull() // the revoking instance updated its own copy
    expect((await sessionAt(b, laptop)).session).not.toBeNull() // the documented staleness: B's copy is still fresh
    vi.setSystemTime(Date.now() + 5_001)
    expect((await sessionAt(b, laptop)).session).toBeNull()
  })

  it("round trips: a read with a fresh copy sends nothing, without one a GET; a revocation one EVAL; a sign-in one GET", async (test) => {
    if (!redis) return test.skip()
    const { sent, client } = counting(redis)
    const [a] = twoInstances(client, `${prefix}trips:`, 60_000)
    const laptop = await signedIn(a, "ada")
    expect(sent).toEqual(["GET"]) // the sign-in asks Redis itself, never a copy
    sent.length = 0
    await sessionAt(a, laptop)
    await sessionAt(a, laptop)
    expect(sent).toEqual([]) // the sign-in's answer is the copy
    await a.revokeSessions("u-ada")
    expect(sent).toEqual(["EVAL"])
    expect(await redis.ttl(`${prefix}trips:u-ada`)).toBeGreaterThan(30 * 24 * 3600)
    const [fresh] = twoInstances(client, `${prefix}trips:`, 60_000)
    sent.length = 0
    expect((await sessionAt(fresh, laptop)).session).toBeNull()
    expect(sent).toEqual(["GET"])
  })
})

describe("redisSessionVersions: when Redis does not answer", () => {
  it("a read falls back on a stale copy; without one it fails (the JWT read then honours the token); a fresh read never uses a copy", async (test) => {
    if (!redis) return test.skip()
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
    const state = { down: false }
    const client = { call: (name: string, ...args: (string | number)[]) => (state.down ? new Promise<never>(() => {}) : redis!.call(name, ...args)) }
    const store = redisSessionVersions(client, { prefix: `${prefix}down:`, cacheMs: 1_000, timeoutMs: 50 })
    const version = await store.bump("u-ada", 60)
    expect(await store.get("u-ada", true)).toBe(version)
    state.down = true
    vi.setSystemTime(Date.now() + 2_000) // the copy is stale now
    expect(await store.get("u-ada")).toBe(version)
    await expect(store.get("u-eve")).rejects.toThrow(/did not answer within 50 ms/)
    await expect(store.get("u-ada", true)).rejects.toThrow(/did not answer/)
  })

  it("refuses options that are not whole milliseconds, and a client of neither kind", () => {
    expect(() => redisSessionVersions(redis ?? { call: async () => null }, { cacheMs: -1 })).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION", option: "cacheMs" }))
    expect(() => redisSessionVersions({} as RedisCommandClient)).toThrow(expect.objectContaining({ code: "ERR_INVALID_OPTION", option: "client" }))
  })
})
