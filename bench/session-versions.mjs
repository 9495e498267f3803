// `npm run bench -- session-versions`: what revocable JWT sessions cost a read (issue 28). One
// process, the method of bench/method.mjs (interleaved slices, rotating start, per-round ratios):
//   off     auth() with a JWT session, session versions off (revocationStore: false): today's read
//   memory  auth() with the default memory store; the user's sessions were revoked once before the
//           sign-in, so every read finds an entry and compares
//   redis   auth() with redisSessionVersions on 127.0.0.1:6379, its local copy fresh (the common
//           case); skipped with a printed reason when Redis does not answer
//   redis, no copy  the same with cacheMs: 0: one GET per read (the cost the copy spares)
// Prints, per case, the median wall µs per read and this process's CPU µs per read (which the other
// processes on a busy machine barely move), each with its range across rounds, and each ratio to
// `off` as the median of per-round ratios with their range.
import Redis from "ioredis"
import { createAuth } from "latchkey"
import { memorySessionVersions } from "latchkey/adapters"
import { redisSessionVersions } from "latchkey/redis"
import { machineWithLoad, median, perRound, ratioText, us } from "./method.mjs"
import { header, signInPairs } from "./sign-in-cookies.mjs"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const ORIGIN = "http://localhost:3000"
const ROUNDS = Math.max(5, Number(process.env.VERSIONS_ROUNDS ?? 21))
const SLICE_MS = Number(process.env.VERSIONS_SLICE_MS ?? 200)
const PREFIX = `latchkey-bench:sv:${process.pid}:`


/** An ioredis client, or the reason there is none. */
async function redisClient() {
  const client = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null })
  try {
    await client.connect()
    await client.ping()
    return { client }
  } catch (error) {
    client.disconnect()
    return { reason: `Redis at 127.0.0.1:6379 did not answer (${error.code ?? error.message})` }
  }
}

const ada = { id: "u-ada", name: "Ada", email: "ada@example.com" }
const credentials = { id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: () => ada }
const base = { secret: SECRET, trustHost: true, env: {}, providers: [credentials] }
const page = (cookie) => new Request(`${ORIGIN}/dashboard`, { headers: { cookie } })

/** A read of Ada's session on an app with `revocationStore`, her sessions revoked once first when it has a store. */
async function readOn(revocationStore) {
  const app = createAuth({ ...base, session: { strategy: "jwt", revocationStore } })
  if (revocationStore) await app.revokeSessions(ada.id)
  const cookie = header(await signInPairs(app.handler, ORIGIN))
  const read = () => app.auth(page(cookie))
  if ((await read())?.user?.email !== ada.email) throw new Error("the bench app did not read Ada's session")
  return { read, cookieBytes: cookie.length }
}

/** One slice of `read`: wall and CPU µs per read, reads in batches of 50 between clock reads. */
async function slice(read, ms) {
  let reads = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  let now = start
  while (now < start + ms) {
    for (let i = 0; i < 50; i++) await read()
    reads += 50
    now = performance.now()
  }
  const used = process.cpuUsage(cpu)
  return { wall: ((now - start) * 1000) / reads, cpu: (used.user + used.system) / reads }
}

/** Every case for `rounds` slices, interleaved with the starting case rotating; answers wall and CPU µs per read per round. */
async function interleaved(reads, rounds, ms) {
  const names = Object.keys(reads)
  for (const name of names) await slice(reads[name], 300)
  const wall = Object.fromEntries(names.map((name) => [name, []]))
  const cpu = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]
      const measured = await slice(reads[name], ms)
      wall[name][round] = measured.wall
      cpu[name][round] = measured.cpu
    }
  }
  return { wall, cpu }
}

const redis = await redisClient()
try {
  const cases = { off: await readOn(false), memory: await readOn(memorySessionVersions()) }
  if (redis.client) {
    cases.redis = await readOn(redisSessionVersions(redis.client, { prefix: PREFIX }))
    cases["redis, no copy"] = await readOn(redisSessionVersions(redis.client, { prefix: PREFIX, cacheMs: 0 }))
  }
  const { wall, cpu } = await interleaved(Object.fromEntries(Object.entries(cases).map(([name, { read }]) => [name, read])), ROUNDS, SLICE_MS)
  const spread = (values) => `${us(median(values))} (${us(Math.min(...values))}–${us(Math.max(...values))})`
  console.log(`\nJWT session reads with session versions (${ROUNDS} interleaved rounds of ${SLICE_MS} ms per case, rotating start; auth() on one request at a time)`)
  console.log(`machine: ${machineWithLoad()}\n`)
  console.log("| read | wall µs/read, median (range) | wall / off | CPU µs/read, median (range) | CPU / off | cookie header bytes |")
  console.log("|---|---:|---:|---:|---:|---:|")
  for (const [name, { cookieBytes }] of Object.entries(cases)) {
    const ratio = (of) => (name === "off" ? "1×" : ratioText(perRound(of[name], of.off), 3))
    console.log(`| ${name} | ${spread(wall[name])} | ${ratio(wall)} | ${spread(cpu[name])} | ${ratio(cpu)} | ${cookieBytes} |`)
  }
  if (!redis.client) console.log(`\nredis cases skipped: ${redis.reason}`)
} finally {
  if (redis.client) {
    const keys = await redis.client.keys(`${PREFIX}*`)
    if (keys.length > 0) await redis.client.del(...keys)
    await redis.client.quit()
  }
}
