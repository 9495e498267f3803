// `npm run bench -- rate-limits`: what the rate limiter costs, in one process, interleaved
// (bench/method.mjs). The sign-in path is a credentials sign-in through createAuth's handler that
// succeeds (authorize, the JWT session cookie, the redirect), with the same CSRF cookie and client
// every time; "off" is `rateLimits: false`, "memory" the default store, "redis" the Redis store on
// 127.0.0.1:6379 when it answers (each consume counted: one round trip each). The limits are raised
// so no attempt is refused: the cost measured is counting, not refusing. Session reads (GET
// /auth/session and auth()) are measured on and off too: the session route is never limited, so
// any difference is noise. Then a spray of 1M random keys into the memory store, with the process's
// RSS before and after (run with --expose-gc for a heap figure after collection).
import { createAuth } from "latchkey"
import Credentials from "latchkey/providers/credentials"
import { rateLimits } from "latchkey/rate-limits"
import { memoryRateLimitStore } from "latchkey/rate-limits"
import { redisRateLimitStore } from "latchkey/redis"
import { interleave, machineWithLoad, perRound, ratioText, README_MODE, median, us } from "./method.mjs"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const APP = "https://app.example.com"
const HIGH = { limit: 1e9, windowSeconds: 3600 }
const routes = { all: { client: HIGH }, credentials: { client: HIGH, identifier: HIGH } }

const users = Credentials({ credentials: { email: {}, password: {} }, authorize: ({ email, password }) => (password === "lovelace" ? { id: "ada", email } : null) })

function app(limits) {
  return createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP }, trustedProxy: "cloudflare", rateLimits: limits, logger: { warn: () => {} } })
}

async function redisStore() {
  try {
    const { default: Redis } = await import("ioredis")
    const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1, lazyConnect: true, enableOfflineQueue: false })
    await redis.connect()
    let calls = 0
    const client = { call: (name, ...args) => (calls++, redis.call(name, ...args)) }
    return { store: redisRateLimitStore(client, { prefix: `latchkey-bench:${crypto.randomUUID()}:` }), calls: () => calls, redis }
  } catch {
    return undefined
  }
}

const redis = await redisStore()
const apps = { off: app(false), memory: app(rateLimits({ routes })), ...(redis ? { redis: app(rateLimits({ routes, store: redis.store })) } : {}) }

// One CSRF token and cookie, from the "off" app (every app shares the secret).
const csrfAnswer = await apps.off.handler(new Request(`${APP}/auth/csrf`, { headers: { "cf-connecting-ip": "198.51.100.7" } }))
const { csrfToken } = await csrfAnswer.json()
const csrfCookie = csrfAnswer.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
const body = new URLSearchParams({ email: "ada@example.com", password: "lovelace", csrfToken }).toString()
const headers = { "cf-connecting-ip": "198.51.100.7", cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" }
const signIn = (auth) => () => auth.handler(new Request(`${APP}/auth/callback/credentials`, { method: "POST", headers, body }))

// Every case must sign in, or the comparison means nothing.
let sessionCookie = ""
for (const [name, auth] of Object.entries(apps)) {
  const answer = await signIn(auth)()
  const session = answer.headers.getSetCookie().find((line) => line.startsWith("__Secure-authjs.session-token="))
  if (answer.status !== 302 || !session) throw new Error(`${name}: the sign-in did not go through (${answer.status})`)
  sessionCookie = `${csrfCookie}; ${session.split(";")[0]}`
}
const sessionRequest = () => new Request(`${APP}/auth/session`, { headers: { "cf-connecting-ip": "198.51.100.7", cookie: sessionCookie } })
const pageRequest = new Request(`${APP}/dashboard`, { headers: { cookie: sessionCookie } })
if (!(await apps.memory.auth(pageRequest))?.user) throw new Error("auth(): no session")

console.log(`rate-limits bench: ${machineWithLoad()}`)
const signInTimes = await interleave(Object.fromEntries(Object.entries(apps).map(([name, auth]) => [`sign-in, ${name}`, signIn(auth)])), { rounds: 9, sliceMs: 400 })
const line = (name, times) => console.log(`  ${name.padEnd(26)} ${us(median(times))} µs per call (${us(Math.min(...times))}–${us(Math.max(...times))})`)
if (!README_MODE) for (const [name, times] of Object.entries(signInTimes)) line(name, times)
console.log(`  sign-in path, memory store on / off: ${ratioText(perRound(signInTimes["sign-in, memory"], signInTimes["sign-in, off"]), 3)}`)
if (redis) {
  console.log(`  sign-in path, redis store on / off:  ${ratioText(perRound(signInTimes["sign-in, redis"], signInTimes["sign-in, off"]), 3)}`)
  const before = redis.calls()
  await signIn(apps.redis)()
  console.log(`  redis round trips per sign-in: ${redis.calls() - before} (one EVAL per key: the ceiling, the route's client, the address; one DEL clearing the address after a sign-in)`)
} else console.log("  redis: not reachable at 127.0.0.1:6379, skipped")

const readTimes = await interleave(
  {
    "GET /session, off": () => apps.off.handler(sessionRequest()),
    "GET /session, memory": () => apps.memory.handler(sessionRequest()),
    "auth(), off": () => apps.off.auth(pageRequest),
    "auth(), memory": () => apps.memory.auth(pageRequest),
  },
  { rounds: 9, sliceMs: 300 },
)
if (!README_MODE) for (const [name, times] of Object.entries(readTimes)) line(name, times)
console.log(`  session reads, GET /session on / off: ${ratioText(perRound(readTimes["GET /session, memory"], readTimes["GET /session, off"]), 3)}`)
console.log(`  session reads, auth() on / off:       ${ratioText(perRound(readTimes["auth(), memory"], readTimes["auth(), off"]), 3)}`)

const store = memoryRateLimitStore()
globalThis.gc?.()
const rssBefore = process.memoryUsage().rss
const rule = { limit: 10, windowSeconds: 900 }
for (let index = 0; index < 1_000_000; index++) await store.consume(`credentials:i:${Math.random().toString(36).slice(2)}${index}`, rule)
globalThis.gc?.()
const { rss, heapUsed } = process.memoryUsage()
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`
console.log(`  memory store, 1M random keys: ${store.size} counters held (bound 20000); RSS ${mb(rssBefore)} -> ${mb(rss)}; heap used ${mb(heapUsed)}${globalThis.gc ? " after GC" : " (no --expose-gc)"}`)
await redis?.redis.quit()
