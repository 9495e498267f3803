// `npm run bench -- sessions`: what one session read costs, in one process, interleaved over rounds
// (A, B, C, D, E, then again), each read awaited before the next:
//   A  latchkey auth() with a JWT session cookie
//   B  latchkey auth() with a database session, @auth/pg-adapter on PostgreSQL
//   C  latchkey auth() with that database session and the hybrid cache cookie (no query)
//   D  @auth/core's Auth() answering GET /api/auth/session for the same session row
//   E  latchkey's handler answering GET /auth/session for the same row (D's counterpart route)
//   F  latchkey auth() with a JWT session cookie, session versions off (revocationStore: false)
//   G  as A, with the session versions on Redis (redisSessionVersions, the local copy fresh);
//      skipped with a printed reason when Redis at 127.0.0.1:6379 does not answer
// A keeps the default (memory) session versions, and its user's sessions were revoked once before
// the sign-in, so every read finds an entry to compare: A / F is what revocable JWT sessions cost.
// Prints the median time per read and its range across rounds, the ratios issue 14 targets, and the
// machine. PostgreSQL at 127.0.0.1:5432; the schema is created for the run and dropped after it.
import { Auth } from "@auth/core"
import GitHub from "@auth/core/providers/github"
import PostgresAdapter from "@auth/pg-adapter"
import { createAuth } from "latchkey"
import { memorySessionVersions } from "latchkey/adapters"
import { redisSessionVersions } from "latchkey/redis"
import Redis from "ioredis"
import { createUser, freshSchema, machineLine, schemaPool } from "./postgres.mjs"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const ORIGIN = "http://localhost:3000"
const ROUNDS = Math.max(5, Number(process.env.SESSIONS_ROUNDS ?? 7))
/** Each case runs this long per round, and at most MAX_READS reads. */
const ROUND_MS = Number(process.env.SESSIONS_ROUND_MS ?? 1000)
const WARMUP_MS = 300
const MAX_READS = 200_000
const CACHE_SECONDS = 300

let store
try {
  store = await freshSchema()
} catch (error) {
  console.error(`sessions bench: ${error.message}`)
  process.exit(1)
}
const pool = schemaPool(store.schema, 4)
let cleaned
const cleanup = () => (cleaned ??= store.drop().finally(() => pool.end()))
process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)))

try {
  await main()
} catch (error) {
  console.error(`sessions bench failed: ${error.stack ?? error}`)
  process.exitCode = 1
} finally {
  await cleanup()
}

/** name=value pairs a response sets, skipping removals. */
function setCookies(response) {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
}

/** A cookie header from name=value pairs, later pairs replacing earlier ones of the same name. */
function cookieHeader(pairs) {
  const jar = new Map(pairs.map((pair) => pair.split(/=(.*)/s).slice(0, 2)))
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** Signs `username` in through the handler's credentials form; answers the browser's cookie pairs. */
async function signIn(handler, username) {
  const csrf = await handler(new Request(`${ORIGIN}/auth/csrf`))
  const pairs = setCookies(csrf)
  const { csrfToken } = await csrf.json()
  const response = await handler(
    new Request(`${ORIGIN}/auth/signin/credentials`, {
      method: "POST",
      headers: { cookie: cookieHeader(pairs), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username }),
    })
  )
  pairs.push(...setCookies(response))
  if (!pairs.some((pair) => pair.startsWith("authjs.session-token="))) throw new Error(`sign-in answered ${response.status} without a session cookie`)
  return pairs
}

/** Mean µs per read of `read` over one round: as many reads as fit in `ms`, at most MAX_READS. */
async function round(read, ms) {
  let reads = 0
  const start = performance.now()
  const end = start + ms
  while (reads < MAX_READS && performance.now() < end) {
    await read()
    reads += 1
  }
  return ((performance.now() - start) * 1000) / reads
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function main() {
  const ada = await createUser(pool, "ada")
  let queries = 0
  const adapter = PostgresAdapter(pool)
  // The hybrid case's adapter counts its reads, to show the cache spared every one of them.
  const countingAdapter = { ...adapter, getSessionAndUser: (token) => (queries++, adapter.getSessionAndUser(token)) }
  const credentials = { id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: () => ada }
  const base = { secret: SECRET, trustHost: true, env: {}, providers: [credentials] }
  const jwt = createAuth({ ...base, session: { strategy: "jwt", revocationStore: memorySessionVersions() } })
  const unversioned = createAuth({ ...base, session: { strategy: "jwt", revocationStore: false } })
  const redis = await redisClient()
  const shared = redis && createAuth({ ...base, session: { strategy: "jwt", revocationStore: redisSessionVersions(redis, { prefix: `latchkey-bench:sv:${process.pid}:` }) } })
  const database = createAuth({ ...base, adapter, session: { strategy: "database" } })
  const hybrid = createAuth({ ...base, adapter: countingAdapter, session: { strategy: "database", cache: { maxAge: CACHE_SECONDS } } })
  const silent = { error: (error) => console.error(error), warn: () => {}, debug: () => {} }
  const authjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/api/auth",
    adapter,
    providers: [GitHub({ clientId: "bench", clientSecret: "bench" })],
    session: { strategy: "database" },
    logger: silent,
  }

  await jwt.revokeSessions(String(ada.id))
  const jwtCookie = cookieHeader(await signIn(jwt.handler, "ada"))
  const unversionedCookie = cookieHeader(await signIn(unversioned.handler, "ada"))
  if (shared) await shared.revokeSessions(String(ada.id))
  const sharedCookie = shared && cookieHeader(await signIn(shared.handler, "ada"))
  const databasePairs = await signIn(database.handler, "ada")
  const databaseCookie = cookieHeader(databasePairs)
  // The cache cookie, as the browser gets it from its first GET /session on the hybrid app.
  const primed = await hybrid.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: databaseCookie } }))
  const hybridCookie = cookieHeader([...databasePairs, ...setCookies(primed)])
  if (hybridCookie === databaseCookie) throw new Error("GET /auth/session with session.cache set no cache cookie")

  const page = (cookie) => new Request(`${ORIGIN}/dashboard`, { headers: { cookie } })
  const cases = [
    { key: "A", label: "JWT read: latchkey auth()", read: () => jwt.auth(page(jwtCookie)) },
    { key: "B", label: "database read: latchkey auth(), pg adapter", read: () => database.auth(page(databaseCookie)) },
    { key: "C", label: "hybrid-cache read: latchkey auth(), cache cookie present", read: () => hybrid.auth(page(hybridCookie)) },
    {
      key: "D",
      label: "database read: @auth/core Auth() GET /api/auth/session, pg adapter",
      read: async () => (await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie: databaseCookie } }), authjsConfig)).json(),
    },
    {
      key: "E",
      label: "database read: latchkey handler GET /auth/session, pg adapter",
      read: async () => (await database.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: databaseCookie } }))).json(),
    },
    { key: "F", label: "JWT read: latchkey auth(), session versions off", read: () => unversioned.auth(page(unversionedCookie)) },
  ]
  // The raw limit of a database read: the adapter's own getSessionAndUser (@auth/pg-adapter's two
  // queries), what both libraries' database reads are made of.
  const sessionToken = decodeURIComponent(databasePairs.find((pair) => pair.startsWith("authjs.session-token=")).slice("authjs.session-token=".length))
  cases.push({ key: "R", label: "the raw limit: the pg adapter's getSessionAndUser alone", read: async () => ({ user: (await adapter.getSessionAndUser(sessionToken)).user }) })
  if (shared) cases.push({ key: "G", label: "JWT read: latchkey auth(), session versions on Redis (local copy)", read: () => shared.auth(page(sharedCookie)) })
  for (const { key, read } of cases) {
    const session = await read()
    if (session?.user?.email !== ada.email) throw new Error(`case ${key} did not read Ada's session: ${JSON.stringify(session)}`)
  }

  for (const { read } of cases) await round(read, WARMUP_MS)
  queries = 0
  const times = Object.fromEntries(cases.map(({ key }) => [key, []]))
  for (let r = 0; r < ROUNDS; r++) for (const { key, read } of cases) times[key].push(await round(read, ROUND_MS))

  const us = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1))
  const range = (values) => `${us(Math.min(...values))}–${us(Math.max(...values))}`
  const ratio = (over, under) => {
    const perRound = times[over].map((time, i) => time / times[under][i])
    return `${median(perRound).toFixed(2)}× (rounds ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)}×)`
  }

  console.log(`\nsession reads (${ROUNDS} interleaved rounds of ${ROUND_MS} ms per case, one read at a time; PostgreSQL at 127.0.0.1:5432 via @auth/pg-adapter)`)
  console.log(`machine: ${machineLine()}\n`)
  console.log("| | read | median µs/read | range across rounds |")
  console.log("|---|---|---:|---:|")
  for (const { key, label } of cases) console.log(`| ${key} | ${label} | ${us(median(times[key]))} | ${range(times[key])} |`)
  console.log("")
  console.log("| ratio (median of per-round ratios) | value | issue 14 target |")
  console.log("|---|---:|---|")
  console.log(`| hybrid read / JWT read (C / A) | ${ratio("C", "A")} | within 1.5× |`)
  console.log(`| @auth/core database read / latchkey database auth() (D / B) | ${ratio("D", "B")} | latchkey at least 2× faster |`)
  console.log(`| @auth/core GET session / latchkey GET session, same route (D / E) | ${ratio("D", "E")} | (for reference) |`)
  console.log(`| latchkey database auth() / the adapter alone (B / R) | ${ratio("B", "R")} | (latchkey's own share of a database read) |`)
  console.log(`| @auth/core database read / the adapter alone (D / R) | ${ratio("D", "R")} | (for reference) |`)
  console.log(`| JWT read, session versions in memory / off (A / F) | ${ratio("A", "F")} | within a few percent (issue 28) |`)
  if (shared) console.log(`| JWT read, session versions on Redis / off (G / F) | ${ratio("G", "F")} | within a few percent (issue 28) |`)
  else console.log(`\nG skipped: ${redisSkipped}`)
  console.log(`\nadapter reads during the hybrid rounds: ${queries}`)
  if (redis) {
    const keys = await redis.keys(`latchkey-bench:sv:${process.pid}:*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  }
}

let redisSkipped = ""
/** An ioredis client on 127.0.0.1:6379, or undefined (with the reason kept for the printout) when Redis does not answer. */
async function redisClient() {
  const client = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null })
  try {
    await client.connect()
    await client.ping()
    return client
  } catch (error) {
    redisSkipped = `Redis at 127.0.0.1:6379 did not answer (${error.code ?? error.message})`
    client.disconnect()
    return undefined
  }
}
