// `npm run bench -- rate-limits`: what the rate limiter costs, in one process, interleaved
// (bench/method.mjs). The sign-in path is a successful credentials sign-in through createAuth's
// handler (bench/rate-limits-apps.mjs), with the limiter off, on with the memory store, and on with
// the Redis store when 127.0.0.1:6379 answers; a second app with the limiter off is the control.
// Session reads (GET /auth/session and auth()) are measured on and off too: the session route is
// never limited, so any difference is noise. Then a spray of 1M random keys into the memory store,
// with the process's RSS before and after (run with --expose-gc for a heap figure after
// collection). The sign-ins are timed twice: in slices (wall and CPU time), then call by call,
// which resolves a few per cent on a quiet machine. `npm run bench -- rate-limits-instructions`
// counts instructions instead of time.
import { memoryRateLimitStore } from "latchkey/rate-limits"
import { APP, signInApps } from "./rate-limits-apps.mjs"
import { interleave, interleaveCalls, interleaveWithCpu, machineWithLoad, perRound, ratioText, README_MODE, median, us } from "./method.mjs"

const { apps, signIn, sessionCookie, redis } = await signInApps({ controls: ["off again"] })
const sessionRequest = () => new Request(`${APP}/auth/session`, { headers: { "cf-connecting-ip": "198.51.100.7", cookie: sessionCookie } })
const pageRequest = new Request(`${APP}/dashboard`, { headers: { cookie: sessionCookie } })
if (!(await apps.memory.auth(pageRequest))?.user) throw new Error("auth(): no session")

console.log(`rate-limits bench: ${machineWithLoad()}`)
// 21 rounds of every case, interleaved, each timed in wall time and in the process's CPU time; the
// control is a second app with the limiter off, so its ratio to "off" shows what this machine's
// noise alone does to a ratio (1.000× on a quiet one).
const signIns = await interleaveWithCpu(Object.fromEntries(Object.entries(apps).map(([name, auth]) => [`sign-in, ${name}`, signIn(auth)])), { rounds: 21, sliceMs: 250 })
const line = (name, times, unit = "µs per call") => console.log(`  ${name.padEnd(26)} ${us(median(times))} ${unit} (${us(Math.min(...times))}–${us(Math.max(...times))})`)
if (!README_MODE) {
  for (const [name, times] of Object.entries(signIns.wall)) line(name, times)
  for (const [name, times] of Object.entries(signIns.cpu)) line(name, times, "µs CPU per call")
}
const ratio = (over, measure = "wall") => ratioText(perRound(signIns[measure][`sign-in, ${over}`], signIns[measure]["sign-in, off"]), 3)
console.log(`  sign-in path, memory store on / off: ${ratio("memory")}`)
console.log(`  sign-in path, memory store on / off, CPU time: ${ratio("memory", "cpu")}`)
console.log(`  control, off / off (noise alone):    ${ratio("off again")}; CPU time ${ratio("off again", "cpu")}`)
// The same apps call by call (bench/method.mjs's interleaveCalls): the median call of each block
// of 1000 steps, 21 blocks; the ratio's range is its spread over the blocks.
const calls = await interleaveCalls(Object.fromEntries(["off", "off again", "memory"].map((name) => [name, signIn(apps[name])])))
if (!README_MODE) for (const [name, times] of Object.entries(calls)) line(`sign-in, ${name}, per call`, times, "µs median call")
console.log(`  sign-in path, memory store on / off, call by call: ${ratioText(perRound(calls.memory, calls.off), 3)}`)
console.log(`  control, off again / off, call by call:            ${ratioText(perRound(calls["off again"], calls.off), 3)}`)
if (redis) {
  console.log(`  sign-in path, redis store on / off:  ${ratio("redis")}`)
  const before = redis.calls()
  await signIn(apps.redis)()
  console.log(`  redis round trips per sign-in: ${redis.calls() - before} (one EVAL counting the ceiling, the route's client and the address; one DEL clearing the address after a sign-in)`)
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
