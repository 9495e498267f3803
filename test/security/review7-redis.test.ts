// Review 7: latchkey/redis on the real Redis (127.0.0.1:6379). Rate-limit counts shared by two
// createAuth instances, windows and lockouts, key injection through identifiers and user ids, a
// Redis that is down, hung or answers garbage, session-version revocations across instances, and
// the refresh lock. Each test uses its own random key prefix, removed after the file. Skips with a
// printed reason when Redis is absent, fails under CI=true (redisForSuite).
import Redis from "ioredis"
import { afterEach, describe, expect, it, vi } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import type { RedisCommandClient } from "../../src/redis/command.js"
import { redisRateLimitStore, redisRefreshStore, redisSessionVersions } from "../../src/redis/index.js"
import { APP as HANDLER_APP, app, csrf, postForm } from "../handler/support.js"
import { attempt, limitedApp, signedIn } from "../rate-limits/support.js"
import { TestBrowser } from "../servers/browser.js"
import { redisForSuite } from "../setup/services.js"

let redis: Redis | undefined
const root = `latchkey-test:review7:${crypto.randomUUID()}:`
redisForSuite(root, (client) => (redis = client))

afterEach(() => {
  vi.useRealTimers()
})

/** A fresh key prefix under the file's root (removed after the file). */
const fresh = (name: string) => `${root}${name}:${crypto.randomUUID()}:`

/** A client passing every command to the real Redis, except where `intercept` answers instead. */
function through(intercept: (name: string, args: (string | number)[]) => Promise<unknown> | undefined): RedisCommandClient & { sent: string[] } {
  const sent: string[] = []
  return {
    sent,
    call: (name: string, ...args: (string | number)[]) => {
      sent.push(name)
      return intercept(name, args) ?? redis!.call(name, ...args)
    },
  }
}

/** Resolves "timeout" when `pending` has not settled within `ms`. */
function within<T>(pending: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([pending, new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)))]).finally(() => clearTimeout(timer))
}

/** Every string reachable from a logged value (own properties, causes). */
function strings(root: unknown): string[] {
  const found: string[] = []
  const seen = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === "string") found.push(value)
    else if (typeof value === "object" && value !== null && !seen.has(value)) {
      seen.add(value)
      for (const key of Reflect.ownKeys(value)) stack.push((value as Record<PropertyKey, unknown>)[key])
    }
  }
  return found
}

const wrongAt = (auth: Parameters<typeof attempt>[0], ip: string, email = "ada@example.com") => attempt(auth, { ip, email, password: "wrong" })

describe("review7: redisRateLimitStore counts", () => {
  it("attack: 30 parallel wrong passwords at one account from 30 IPs, split over two createAuth instances; exactly 5 reach authorize", async (test) => {
    if (!redis) return test.skip()
    const store = redisRateLimitStore(redis, { prefix: fresh("burst") })
    const limits = { store, routes: { credentials: { identifier: { limit: 5, windowSeconds: 60 } } } }
    const one = limitedApp({ limits })
    const two = limitedApp({ limits })
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => wrongAt((index % 2 ? one : two).auth, `203.0.113.${index + 1}`)))
    expect(one.seen.authorize + two.seen.authorize).toBe(5)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(25)
  })

  it("attack: keep hammering a locked-out key to push its window (PEXPIRE on every hit) — the window is never extended", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("window")
    const store = redisRateLimitStore(redis, { prefix })
    const rule = { limit: 2, windowSeconds: 30 }
    const first = await store.consume("k", rule)
    await new Promise((resolve) => setTimeout(resolve, 60))
    for (let index = 0; index < 20; index++) await store.consume("k", rule)
    const last = await store.consume("k", rule)
    expect(last.count).toBe(22)
    expect(last.resetInMs).toBeLessThan(first.resetInMs - 40)
    expect(await redis.pttl(`${prefix}k`)).toBeLessThanOrEqual(last.resetInMs)
  })

  it("attack: a counter left without an expiry (PERSIST, a restore) would lock out forever — the next hit gives it a window again", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("persist")
    const store = redisRateLimitStore(redis, { prefix })
    await redis.set(`${prefix}k`, "50")
    const answer = await store.consume("k", { limit: 5, windowSeconds: 2 })
    expect(answer.count).toBe(51)
    const ttl = await redis.pttl(`${prefix}k`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(2_000)
  })

  it("attack: identifiers with ':', '{', '}', '*', newlines and CRLF reach Redis only as hashed keys under the prefix; no key holds the address", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("inject")
    const { auth } = limitedApp({ limits: { store: redisRateLimitStore(redis, { prefix }) } })
    const hostile = ["ada@example.com\r\nFLUSHALL", "*", "{latchkey:rl}:x", "a:b:c@example.com", "ev}il{@example.com", "x\n*3\r\n$3\r\nDEL"]
    for (const email of hostile) await wrongAt(auth, "198.51.100.9", email)
    const keys = await redis.keys(`${prefix}*`)
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      const rest = key.slice(prefix.length)
      expect(rest).toMatch(/^(all:c:198\.51\.100\.9|credentials:c:198\.51\.100\.9|credentials:i:[A-Za-z0-9_-]{22})$/)
    }
    // Every hostile spelling counted under one key of its own (none folded into another's).
    expect(keys.filter((key) => key.includes(":i:"))).toHaveLength(hostile.length)
    expect(await redis.get(`${prefix}all:c:198.51.100.9`)).toBe(String(hostile.length * 2)) // csrf + post each
  })

  it("attack: exhaust an account's budget on app A to lock it out on app B (another prefix, or another secret) — counts stay apart", async (test) => {
    if (!redis) return test.skip()
    const shared = fresh("apps")
    const a = limitedApp({ limits: { store: redisRateLimitStore(redis, { prefix: shared }), routes: { credentials: { identifier: { limit: 2, windowSeconds: 60 } } } } })
    const otherPrefix = limitedApp({ limits: { store: redisRateLimitStore(redis, { prefix: fresh("apps-b") }), routes: { credentials: { identifier: { limit: 2, windowSeconds: 60 } } } } })
    const otherSecret = limitedApp({ secret: "another-apps-secret-0123456789abcdefgh", limits: { store: redisRateLimitStore(redis, { prefix: shared }), routes: { credentials: { identifier: { limit: 2, windowSeconds: 60 } } } } })
    for (let index = 0; index < 4; index++) await wrongAt(a.auth, `192.0.2.${index + 1}`)
    expect((await wrongAt(a.auth, "192.0.2.50")).status).toBe(429)
    expect(signedIn(await attempt(otherPrefix.auth, { ip: "192.0.2.60", password: "lovelace" }))).toBe(true)
    expect(signedIn(await attempt(otherSecret.auth, { ip: "192.0.2.61", password: "lovelace" }))).toBe(true)
  })

  it("attack: a right password after the lockout clears the count on every instance (DEL), and a clear on A lets B sign in", async (test) => {
    if (!redis) return test.skip()
    const store = redisRateLimitStore(redis, { prefix: fresh("clear") })
    const limits = { store, routes: { credentials: { identifier: { limit: 3, windowSeconds: 60 } } } }
    const a = limitedApp({ limits })
    const b = limitedApp({ limits })
    for (let index = 0; index < 3; index++) await wrongAt(a.auth, `192.0.2.${index + 1}`)
    expect((await wrongAt(b.auth, "192.0.2.9")).status).toBe(429)
    await a.auth.clearLockout("ADA@example.com")
    expect(signedIn(await attempt(b.auth, { ip: "192.0.2.10", password: "lovelace" }))).toBe(true)
  })
})

describe("review7: redisRateLimitStore when Redis fails", () => {
  it("attack: Redis down during sign-in — the attempt goes on (fails open) and an error is logged without the address", async (test) => {
    if (!redis) return test.skip()
    const errors: Error[] = []
    const client = through(() => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" })))
    const { auth } = limitedApp({ limits: { store: redisRateLimitStore(client, { prefix: fresh("down")! }) }, logger: { error: (error) => void errors.push(error), warn: () => {} } })
    expect(signedIn(await attempt(auth, { ip: "198.51.100.20", email: "Ada@Example.com", password: "lovelace" }))).toBe(true)
    expect(errors.length).toBeGreaterThan(0)
    expect(errors[0]!.message).toMatch(/rate-limit store failed/)
    expect(strings(errors).join("\n").toLowerCase()).not.toContain("ada@example.com")
  })

  it("attack: Redis answers garbage (a string, a short array, NaN counts) — never read as a pass count of 0, logged as a store failure", async (test) => {
    if (!redis) return test.skip()
    for (const garbage of ["OK", [1], ["x", "y", "z", "w", "v", "u"], null]) {
      const errors: Error[] = []
      const client = through((name) => (name === "EVAL" ? Promise.resolve(garbage) : undefined))
      const { auth } = limitedApp({ limits: { store: redisRateLimitStore(client) }, logger: { error: (error) => void errors.push(error), warn: () => {} } })
      await wrongAt(auth, "198.51.100.21")
      expect(errors.some((error) => /rate-limit store failed/.test(error.message))).toBe(true)
    }
  })

  it("attack: a script error on a key of the wrong type (a colliding key) — fails open, and the logged error holds neither the address nor the raw identifier", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("wrongtype")
    await redis.hset(`${prefix}all:c:198.51.100.22`, "x", "1")
    const errors: Error[] = []
    const { auth } = limitedApp({ limits: { store: redisRateLimitStore(redis, { prefix }) }, logger: { error: (error) => void errors.push(error), warn: () => {} } })
    expect(signedIn(await attempt(auth, { ip: "198.51.100.22", email: "ada@example.com", password: "lovelace" }))).toBe(true)
    expect(errors.length).toBeGreaterThan(0)
    expect(strings(errors).join("\n")).not.toContain("ada@example.com")
  })

  it("attack: a Redis that accepts the connection but never answers (partition, stuck failover) hangs every sign-in — the attempt must still answer within 5 s", async (test) => {
    if (!redis) return test.skip()
    const state = { hung: false }
    const client = through((name) => (state.hung && name === "EVAL" ? new Promise<never>(() => {}) : undefined))
    const { auth } = limitedApp({ limits: { store: redisRateLimitStore(client, { prefix: fresh("hung") }) }, logger: { error: () => {}, warn: () => {} } })
    state.hung = true
    const answer = await within(attempt(auth, { ip: "198.51.100.23", password: "lovelace" }), 5_000)
    expect(answer, "the sign-in never answered: the rate-limit store has no timeout").not.toBe("timeout")
  }, 15_000)

  it("attack: Redis drops between the count and the success DEL — the right password still signs in (the failure is logged, not thrown)", async (test) => {
    if (!redis) return test.skip()
    const errors: Error[] = []
    const client = through((name) => (name === "DEL" ? Promise.reject(new Error("Connection is closed.")) : undefined))
    const { auth } = limitedApp({ limits: { store: redisRateLimitStore(client, { prefix: fresh("del") }) }, logger: { error: (error) => void errors.push(error), warn: () => {} } })
    let outcome: Response | Error
    try {
      outcome = await attempt(auth, { ip: "198.51.100.24", password: "lovelace" })
    } catch (error) {
      outcome = error as Error
    }
    expect(outcome instanceof Error ? `handler threw: ${outcome.message}` : signedIn(outcome)).toBe(true)
  })
})

describe("review7: redisSessionVersions", () => {
  const people = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: String(username), name: String(username) }) })
  const instance = (client: RedisCommandClient, prefix: string, options: { cacheMs?: number; timeoutMs?: number } = {}, logger?: { error: (error: Error) => void }) =>
    app({ providers: [people()], session: { strategy: "jwt", revocationStore: redisSessionVersions(client, { prefix, ...options }) }, ...(logger ? { logger: { ...logger, warn: () => {} } } : {}) })
  async function signIn(on: ReturnType<typeof app>, username: string) {
    const browser = new TestBrowser(undefined, on.dispatch)
    await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username })
    return browser
  }
  async function sessionAt(on: ReturnType<typeof app>, browser: TestBrowser) {
    const cookie = [...browser.cookies(HANDLER_APP)].map(([name, value]) => `${name}=${value}`).join("; ")
    return (await (await on.handler(new Request(`${HANDLER_APP}/auth/session`, { headers: { cookie } }))).json()) as Record<string, any> | null
  }

  it("attack: user ids with ':', '*', '{', newlines — revoking one never revokes another, and a revocation on A reaches B (cacheMs 0)", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("sv-inject")
    const a = instance(redis, prefix, { cacheMs: 0 })
    const b = instance(redis, prefix, { cacheMs: 0 })
    const names = ["ada", "ada:", "ada:x", "*", "{ada}", "ada\r\nDEL x"]
    const browsers = await Promise.all(names.map((name) => signIn(a, name)))
    for (const [index, name] of names.entries()) expect(await sessionAt(b, browsers[index]!)).toMatchObject({ user: { name } })
    await a.revokeSessions("ada")
    await a.revokeSessions("*")
    const after = await Promise.all(browsers.map((browser) => sessionAt(b, browser)))
    expect(after.map((answer) => answer !== null)).toEqual([false, true, true, false, true, true])
    expect(await redis.exists(`${prefix}ada`, `${prefix}*`)).toBe(2)
    expect(await redis.exists(`${prefix}ada:`, `${prefix}{ada}`)).toBe(0)
  })

  it("attack: a revocation's key expires too early, bringing revoked sessions back — it lasts session.maxAge and more, and a second bump never shortens it", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("sv-ttl")
    const store = redisSessionVersions(redis, { prefix })
    const first = await store.bump("ada", 1_000)
    expect(await redis.ttl(`${prefix}ada`)).toBeGreaterThan(990)
    const second = await store.bump("ada", 10)
    expect(second).toBeGreaterThan(first)
    expect(await redis.ttl(`${prefix}ada`)).toBeGreaterThan(990)
  })

  it("attack: revoke while Redis is down — revokeSessions rejects (never looks done), and the session stays revocable once Redis is back", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("sv-down")
    const state = { down: false }
    const client = through(() => (state.down ? Promise.reject(new Error("Connection is closed.")) : undefined))
    const a = instance(client, prefix, { cacheMs: 0 }, { error: () => {} })
    const laptop = await signIn(a, "ada")
    state.down = true
    await expect(a.revokeSessions("ada")).rejects.toThrow()
    state.down = false
    await a.revokeSessions("ada")
    expect(await sessionAt(a, laptop)).toBeNull()
  })

  it("attack: revoke while Redis hangs (no answer) — revokeSessions must reject within timeoutMs, not hang the request forever (docs/databases.md: store slower than timeoutMs fails, revocation throws)", async (test) => {
    if (!redis) return test.skip()
    const client = through((name) => (name === "EVAL" ? new Promise<never>(() => {}) : undefined))
    const a = instance(client, fresh("sv-hung"), { cacheMs: 0, timeoutMs: 100 }, { error: () => {} })
    await signIn(a, "ada")
    const outcome = await within(
      a.revokeSessions("ada").then(
        () => "resolved",
        () => "rejected",
      ),
      3_000,
    )
    expect(outcome, "revokeSessions never settled: bump has no timeout").toBe("rejected")
  }, 10_000)

  it("attack: cacheMs 0, a stolen cookie read while a GET is in flight on the revoking instance — a read started after revokeSessions resolved must see the revocation", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("sv-inflight")
    const state = { holdGets: false }
    const held: (() => void)[] = []
    const client = through((name, args) => {
      if (name !== "GET" || !state.holdGets) return undefined
      const reply = redis!.call(name, ...args) // sent now: Redis answers the version before the revocation
      return new Promise((resolve) => held.push(() => resolve(reply)))
    })
    const a = instance(client, prefix, { cacheMs: 0 })
    const laptop = await signIn(a, "ada")
    expect(await sessionAt(a, laptop)).toMatchObject({ user: { name: "ada" } })
    state.holdGets = true
    const before = sessionAt(a, laptop) // the attacker's request, in flight across the revocation
    for (let tries = 0; held.length === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(held).toHaveLength(1)
    await a.revokeSessions("ada") // done: the owner was told their sessions are signed out
    const after = sessionAt(a, laptop) // the attacker's next request, after the revocation
    await new Promise((resolve) => setTimeout(resolve, 100))
    state.holdGets = false
    for (const release of held.splice(0)) release()
    await before
    expect(await after, "a read begun after revokeSessions resolved shared a GET sent before it").toBeNull()
  })

  it("attack: Redis down on every read — the token is honoured (documented fail-open) and the failure is logged, never silent", async (test) => {
    if (!redis) return test.skip()
    const state = { down: false }
    const errors: Error[] = []
    const client = through(() => (state.down ? Promise.reject(new Error("Connection is closed.")) : undefined))
    const a = instance(client, fresh("sv-read-down"), { cacheMs: 0 }, { error: (error) => void errors.push(error) })
    const laptop = await signIn(a, "ada")
    state.down = true
    expect(await sessionAt(a, laptop)).toMatchObject({ user: { name: "ada" } })
    expect(errors.some((error) => /Session versions failed/.test(error.message))).toBe(true)
  })
})

describe("review7: redisRefreshStore", () => {
  it("attack: another instance (or an expired holder) releases a lock it does not own — only the owner's release deletes it; prefixes keep apps apart", async (test) => {
    if (!redis) return test.skip()
    const prefix = fresh("refresh")
    const one = redisRefreshStore(redis, { prefix })
    const two = redisRefreshStore(redis, { prefix })
    const otherApp = redisRefreshStore(redis, { prefix: fresh("refresh-other") })
    expect(await one.acquire("lock:h", "owner-1", 5_000)).toBe(true)
    expect(await two.acquire("lock:h", "owner-2", 5_000)).toBe(false)
    expect(await otherApp.acquire("lock:h", "owner-3", 5_000)).toBe(true)
    await two.release("lock:h", "owner-2")
    expect(await two.acquire("lock:h", "owner-2", 5_000)).toBe(false)
    await one.release("lock:h", "owner-1")
    expect(await two.acquire("lock:h", "owner-2", 5_000)).toBe(true)
    expect(await redis.pttl(`${prefix}lock:h`)).toBeGreaterThan(0)
    await one.put("result:h", "sealed", 60_000) // ttlMs: milliseconds
    expect(await redis.pttl(`${prefix}result:h`)).toBeGreaterThan(0)
    await otherApp.release("lock:h", "owner-3")
  })
})
