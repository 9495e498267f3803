// `node bench/sessions-ab.mjs <other-build>`: the session reads of this build against another build
// of latchkey (a checkout's folder, holding its own dist/, such as main's before a change), in one
// process, interleaved over rounds, so a before/after on a busy machine compares like with like.
// Each build reads the same PostgreSQL row through the same pool:
//   A  auth() with a JWT session cookie
//   B  auth() with a database session, @auth/pg-adapter
//   C  auth() with that database session and its hybrid cache cookie
//   D  @auth/core's Auth() answering GET /api/auth/session for the row (once per round, shared)
// Prints the median µs per read per build (wall, and this process's CPU time, which other processes'
// load barely moves), the per-round ratios this/other, and each build's D / B.
import { Auth } from "@auth/core"
import GitHub from "@auth/core/providers/github"
import PostgresAdapter from "@auth/pg-adapter"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as current from "latchkey"
import { createUser, freshSchema, machineLine, schemaPool } from "./postgres.mjs"
import { header, pairsOf, signInPairs } from "./sign-in-cookies.mjs"

const other = process.argv[2]
if (!other) {
  console.error("usage: node bench/sessions-ab.mjs <folder of another latchkey build, with dist/>")
  process.exit(1)
}
const baseline = await import(pathToFileURL(resolve(other, "dist/index.js")).href)
const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const ORIGIN = "http://localhost:3000"
const ROUNDS = Math.max(5, Number(process.env.SESSIONS_ROUNDS ?? 9))
const ROUND_MS = Number(process.env.SESSIONS_ROUND_MS ?? 700)



/** One build's three reads, each checked to read Ada's session once before timing. */
async function readsOf(latchkey, adapter, ada) {
  const credentials = { id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: () => ada }
  const base = { secret: SECRET, trustHost: true, env: {}, providers: [credentials] }
  const jwt = latchkey.createAuth(base)
  const database = latchkey.createAuth({ ...base, adapter, session: { strategy: "database" } })
  const hybrid = latchkey.createAuth({ ...base, adapter, session: { strategy: "database", cache: { maxAge: 300 } } })
  const jwtCookie = header(await signInPairs(jwt.handler, ORIGIN))
  const databasePairs = await signInPairs(database.handler, ORIGIN)
  const databaseCookie = header(databasePairs)
  const primed = await hybrid.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: databaseCookie } }))
  const hybridCookie = header([...databasePairs, ...pairsOf(primed)])
  const page = (cookie) => new Request(`${ORIGIN}/dashboard`, { headers: { cookie } })
  const reads = { A: () => jwt.auth(page(jwtCookie)), B: () => database.auth(page(databaseCookie)), C: () => hybrid.auth(page(hybridCookie)) }
  for (const [key, read] of Object.entries(reads)) if ((await read())?.user?.email !== ada.email) throw new Error(`case ${key} did not read Ada's session`)
  return { reads, databaseCookie }
}

/** One round of `read`: wall µs per read, and this process's CPU µs per read (which other processes' load barely moves). */
async function round(read, ms) {
  let count = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  while (performance.now() < start + ms) {
    await read()
    count++
  }
  const wall = ((performance.now() - start) * 1000) / count
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / count }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function main() {
  const ada = await createUser(pool, "ada")
  const adapter = PostgresAdapter(pool)
  const builds = { this: await readsOf(current, adapter, ada), other: await readsOf(baseline, adapter, ada) }
  const authjs = { secret: SECRET, trustHost: true, basePath: "/api/auth", adapter, providers: [GitHub({ clientId: "bench", clientSecret: "bench" })], session: { strategy: "database" }, logger: { error: () => {}, warn: () => {}, debug: () => {} } }
  const cookie = builds.this.databaseCookie
  const D = async () => (await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie } }), authjs)).json()
  const times = {}
  const cpu = {}
  const cases = []
  for (const key of ["A", "B", "C"]) for (const build of ["this", "other"]) cases.push({ name: `${key} ${build}`, read: builds[build].reads[key] })
  cases.push({ name: "D authjs", read: D })
  for (const { name, read } of cases) {
    times[name] = []
    cpu[name] = []
    await round(read, 200)
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const { name, read } of cases) {
      const { wall, cpu: used } = await round(read, ROUND_MS)
      times[name].push(wall)
      cpu[name].push(used)
    }
  }
  const us = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1))
  const ratio = (over, under, of = times) => {
    const each = of[over].map((time, i) => time / of[under][i])
    return `${median(each).toFixed(2)}× (rounds ${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)}×)`
  }
  console.log(`\nsession reads, this build against ${other} (${ROUNDS} interleaved rounds of ${ROUND_MS} ms per case; PostgreSQL via @auth/pg-adapter)`)
  console.log(`machine: ${machineLine()}\n`)
  console.log("| read | this µs | other µs | this / other (per round) | this CPU µs | other CPU µs | CPU this / other |")
  console.log("|---|---:|---:|---:|---:|---:|---:|")
  const labels = { A: "JWT auth()", B: "database auth(), pg", C: "hybrid auth(), cache cookie" }
  for (const key of ["A", "B", "C"]) {
    const [mine, theirs] = [`${key} this`, `${key} other`]
    const wall = `${us(median(times[mine]))} | ${us(median(times[theirs]))} | ${ratio(mine, theirs)}`
    console.log(`| ${key} ${labels[key]} | ${wall} | ${us(median(cpu[mine]))} | ${us(median(cpu[theirs]))} | ${ratio(mine, theirs, cpu)} |`)
  }
  console.log(`\n@auth/core GET /api/auth/session: ${us(median(times["D authjs"]))} µs (CPU ${us(median(cpu["D authjs"]))} µs)`)
  console.log(`D / B wall: this ${ratio("D authjs", "B this")}, other ${ratio("D authjs", "B other")}`)
  console.log(`D / B CPU: this ${ratio("D authjs", "B this", cpu)}, other ${ratio("D authjs", "B other", cpu)}`)
}

const store = await freshSchema()
const pool = schemaPool(store.schema, 4)
try {
  await main()
} finally {
  await store.drop()
  await pool.end()
}
