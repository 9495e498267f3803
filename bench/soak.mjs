// npm run soak: load and memory. Signs in and reads sessions against the node:http example on
// 127.0.0.1 with autocannon for SOAK_SECONDS (default 60), reporting throughput, p99 latency and
// heap before and after; then a million getToken calls with random secrets and salts, whose heap
// must not grow with the call count (every cache is bounded); then memory per session check
// against @auth/core (bench/memory.mjs: peak RSS over 100k checks and bytes allocated per check,
// interleaved, a fresh process each). Traffic stays on loopback, and every loop is bounded in
// count and time. `npm run soak -- --memory` runs only the last part.
import { createServer } from "node:http"
import autocannon from "autocannon"
import { createAuth } from "latchkey"
import { encode, getToken } from "latchkey/jwt"
import { toWebHandler } from "latchkey/node"

// `npm run soak -- --instances N`: N app processes on one PostgreSQL (bench/soak-instances.mjs) instead.
const instancesFlag = process.argv.indexOf("--instances")
if (instancesFlag !== -1) {
  const { soakInstances } = await import("./soak-instances.mjs")
  process.exit(await soakInstances({ instances: Number(process.argv[instancesFlag + 1]), seconds: Number(process.env.SOAK_SECONDS ?? 60) }))
}

if (process.argv.includes("--memory")) {
  const { memoryComparison } = await import("./memory.mjs")
  await memoryComparison()
  process.exit(0)
}

const seconds = Number(process.env.SOAK_SECONDS ?? 60)
const calls = Number(process.env.SOAK_GETTOKEN_CALLS ?? 1_000_000)
const secret = "latchkey-soak-secret-0123456789abcdef0123"
const gc = globalThis.gc ?? (() => {})
const heapMb = () => (gc(), process.memoryUsage().heapUsed / 1024 / 1024)

const { handler } = createAuth({
  secret,
  trustHost: true,
  env: {},
  providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: (fields) => ({ id: "u1", name: String(fields.username) }) }],
})
const server = createServer(toWebHandler(handler))
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const base = `http://127.0.0.1:${server.address().port}`

const csrfResponse = await fetch(`${base}/auth/csrf`)
const csrfCookie = csrfResponse.headers.getSetCookie()[0].split(";")[0]
const { csrfToken } = await csrfResponse.json()
const form = { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" }
const signIn = await fetch(`${base}/auth/signin/credentials`, { method: "POST", redirect: "manual", headers: form, body: new URLSearchParams({ csrfToken, username: "soak" }) })
const sessionCookie = signIn.headers.getSetCookie().find((line) => line.startsWith("authjs.session-token=")).split(";")[0]

const before = heapMb()
const result = await autocannon({
  url: base,
  connections: 16,
  duration: seconds,
  requests: [
    { method: "POST", path: "/auth/signin/credentials", headers: form, body: new URLSearchParams({ csrfToken, username: "soak" }).toString() },
    { method: "GET", path: "/auth/session", headers: { cookie: sessionCookie } },
    { method: "GET", path: "/auth/session", headers: { cookie: sessionCookie } },
    { method: "GET", path: "/auth/session", headers: { cookie: sessionCookie } },
  ],
})
const after = heapMb()
server.close()
console.log(`\nsoak (${seconds}s, 16 connections, 1 sign-in per 3 session reads, Node ${process.versions.node})`)
// Sign-ins answer 302, so failures are the 4xx, 5xx and transport errors.
const failures = result["4xx"] + result["5xx"] + result.errors + result.timeouts
console.log(`| requests/s | p99 latency | failures | heap before | heap after |`)
console.log(`|---:|---:|---:|---:|---:|`)
console.log(`| ${result.requests.average.toFixed(0)} | ${result.latency.p99} ms | ${failures} | ${before.toFixed(1)} MB | ${after.toFixed(1)} MB |`)

const token = await encode({ token: { sub: "x" }, secret, salt: "authjs.session-token" })
const request = new Headers({ cookie: `authjs.session-token=${token}` })
const random = () => Math.random().toString(36).slice(2)
const checkpoints = []
const heapStart = heapMb()
for (let i = 1; i <= calls; i++) {
  await getToken({ req: request, secret: random(), salt: random() })
  if (i % (calls / 4) === 0) checkpoints.push(heapMb())
}
console.log(`\n${calls} getToken calls with random secrets and salts: heap ${heapStart.toFixed(1)} MB → ${checkpoints.map((mb) => mb.toFixed(1)).join(" → ")} MB`)
const growth = checkpoints.at(-1) - checkpoints[0]
if (growth > 16) {
  console.error(`heap grew by ${growth.toFixed(1)} MB between the first and last quarter: a cache is not bounded`)
  process.exit(1)
}

const { memoryComparison } = await import("./memory.mjs")
await memoryComparison()
