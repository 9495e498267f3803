// The apps the rate-limit benchmarks sign in to (bench/rate-limits.mjs, bench/rate-limits-instructions.mjs):
// a credentials sign-in through createAuth's handler that succeeds (authorize, the JWT session
// cookie, the redirect), with the same CSRF cookie and client every time. "off" is
// `rateLimits: false`, "memory" the default store, "redis" the Redis store on 127.0.0.1:6379 when
// it answers (each call counted). The limits are raised so no attempt is refused: the cost measured
// is counting, not refusing.
import { createAuth } from "latchkey"
import Credentials from "latchkey/providers/credentials"
import { rateLimits } from "latchkey/rate-limits"
import { redisRateLimitStore } from "latchkey/redis"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
export const APP = "https://app.example.com"
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

/**
 * The apps ({ off, memory, redis? }, plus `extra` more "off" apps under the names given, for a
 * control), the sign-in each is timed on, and the session cookie one sign-in gave.
 */
export async function signInApps({ redis: withRedis = true, controls = [] } = {}) {
  const redis = withRedis ? await redisStore() : undefined
  const apps = {
    off: app(false),
    ...Object.fromEntries(controls.map((name) => [name, app(false)])),
    memory: app(rateLimits({ routes })),
    ...(redis ? { redis: app(rateLimits({ routes, store: redis.store })) } : {}),
  }
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
  return { apps, signIn, sessionCookie, redis }
}
