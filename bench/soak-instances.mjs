// `npm run soak -- --instances N` (N from 2 to 8; the issue runs 3): N app processes, each its own
// createAuth on one shared PostgreSQL schema through @auth/pg-adapter, with database sessions, each
// on its own port on 127.0.0.1. Users sign in on instance 1; instances 2..N serve their session
// reads under autocannon load for SOAK_SECONDS (default 60); halfway through, one more user signs
// out on instance N, and instances 1..N-1 are asked for that user's session until they answer
// signed out. Prints one table: requests/s, p50 and p99 latency, failures, and that revocation
// delay, under the machine line. The schema is created for the run and dropped after it, and the
// children are stopped, on failure and on Ctrl-C too. Every loop is bounded in count and time.
import { fork } from "node:child_process"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import autocannon from "autocannon"
import { createUser, freshSchema, machineLine, schemaPool } from "./postgres.mjs"

const SECRET = "latchkey-soak-secret-0123456789abcdef0123"
const LOAD_USERS = 8
const TOTAL_CONNECTIONS = 16
const START_TIMEOUT_MS = 15_000
const STOP_TIMEOUT_MS = 5_000
/** The revocation probe: one request every PROBE_PAUSE_MS, at most PROBE_MAX_REQUESTS or PROBE_MAX_MS. */
const PROBE_PAUSE_MS = 20
const PROBE_MAX_REQUESTS = 200
const PROBE_MAX_MS = 10_000
const FORM = "application/x-www-form-urlencoded"

/** The name=value pairs a response sets, skipping removals. */
function setCookies(response) {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
}

/** Signs `username` in through the credentials form; answers the browser's cookie header and CSRF token. */
async function signIn(base, username) {
  const csrfResponse = await fetch(`${base}/auth/csrf`)
  const jar = new Map(setCookies(csrfResponse).map((pair) => pair.split(/=(.*)/s).slice(0, 2)))
  const { csrfToken } = await csrfResponse.json()
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  const response = await fetch(`${base}/auth/signin/credentials`, { method: "POST", redirect: "manual", headers: { cookie: cookie(), "content-type": FORM }, body: new URLSearchParams({ csrfToken, username }) })
  await response.arrayBuffer()
  for (const pair of setCookies(response)) jar.set(...pair.split(/=(.*)/s).slice(0, 2))
  if (!jar.has("authjs.session-token")) throw new Error(`signing ${username} in on instance 1 answered ${response.status} without a session cookie`)
  return { cookie: cookie(), csrfToken }
}

/** The session JSON an instance answers for `cookie` (null when signed out). */
async function sessionOf(base, cookie) {
  const response = await fetch(`${base}/auth/session`, { headers: { cookie } })
  if (response.status !== 200) throw new Error(`GET ${base}/auth/session answered ${response.status}`)
  return response.json()
}

/** Asks `base` for the session until it is gone: which request first answered signed out, and how long after `since`. */
async function untilSignedOut(base, cookie, since) {
  for (let request = 1; request <= PROBE_MAX_REQUESTS; request++) {
    if ((await sessionOf(base, cookie)) === null) return { request, ms: performance.now() - since }
    if (performance.now() - since > PROBE_MAX_MS) break
    await sleep(PROBE_PAUSE_MS)
  }
  return undefined
}

/** Forks instance `number` and waits for the port it listens on. */
function startInstance(number, schema, users) {
  const child = fork(new URL("./soak-instance.mjs", import.meta.url), [], {
    env: { ...process.env, SOAK_INSTANCE: String(number), SOAK_SCHEMA: schema, SOAK_USERS: JSON.stringify(users), SOAK_SECRET: SECRET },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${number} did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
    child.once("message", ({ port }) => (clearTimeout(timer), resolve(`http://127.0.0.1:${port}`)))
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`instance ${number} exited (${code}) before it listened`))))
  })
  return { child, ready }
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there after STOP_TIMEOUT_MS. */
async function stopInstance(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** The errors an instance's logger saw, or "?" when it does not answer within a second. */
function errorsOf(child) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("?"), 1_000)
    child.once("message", ({ errors }) => (clearTimeout(timer), resolve(errors)))
    child.send("errors")
  })
}

/** Runs the multi-instance soak; answers the exit code. */
export async function soakInstances({ instances, seconds }) {
  if (!Number.isInteger(instances) || instances < 2 || instances > 8) {
    console.error(`--instances takes a whole number from 2 to 8 (got ${instances})`)
    return 1
  }
  if (!(seconds > 0 && seconds <= 3600)) {
    console.error(`SOAK_SECONDS must be more than 0 and at most 3600 (got ${seconds})`)
    return 1
  }
  let store
  try {
    store = await freshSchema()
  } catch (error) {
    console.error(`soak --instances ${instances}: ${error.message}`)
    return 1
  }
  const children = []
  let cleaned
  const cleanup = () =>
    (cleaned ??= (async () => {
      await Promise.all(children.map(stopInstance))
      await store.drop()
    })())
  const interrupted = () => void cleanup().finally(() => process.exit(130))
  process.once("SIGINT", interrupted)
  process.once("SIGTERM", interrupted)
  try {
    return await run(instances, seconds, store.schema, children)
  } catch (error) {
    console.error(`soak --instances ${instances} failed: ${error.stack ?? error}`)
    return 1
  } finally {
    await cleanup()
    process.off("SIGINT", interrupted)
    process.off("SIGTERM", interrupted)
  }
}

async function run(instances, seconds, schema, children) {
  const pool = schemaPool(schema, 1)
  const names = [...Array.from({ length: LOAD_USERS }, (_, i) => `soak-${i + 1}`), "soak-revoked"]
  const users = []
  try {
    for (const name of names) users.push(await createUser(pool, name))
  } finally {
    await pool.end()
  }

  const started = Array.from({ length: instances }, (_, i) => startInstance(i + 1, schema, users))
  children.push(...started.map(({ child }) => child))
  const bases = await Promise.all(started.map(({ ready }) => ready))
  const [first, ...readers] = bases
  const last = bases.at(-1)
  const probed = bases.slice(0, -1)

  const browsers = []
  for (const name of names) browsers.push(await signIn(first, name))
  const victim = browsers.pop()
  for (const base of bases) {
    const session = await sessionOf(base, browsers[0].cookie)
    if (session?.user?.email !== users[0].email) throw new Error(`${base} does not read the session signed in on instance 1: ${JSON.stringify(session)}`)
  }

  const connections = Math.max(1, Math.floor(TOTAL_CONNECTIONS / readers.length))
  const loads = readers.map((url) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      requests: browsers.map(({ cookie }) => ({ method: "GET", path: "/auth/session", headers: { cookie } })),
      // A read answered signed out (or an error page) is a failure too.
      verifyBody: (body) => body.includes('"email":"soak-'),
    })
  )

  const revocation = (async () => {
    await sleep((seconds * 1000) / 2)
    for (const base of probed) {
      if ((await sessionOf(base, victim.cookie)) === null) throw new Error(`${base} answered signed out before the sign-out`)
    }
    const response = await fetch(`${last}/auth/signout`, { method: "POST", redirect: "manual", headers: { cookie: victim.cookie, "content-type": FORM }, body: new URLSearchParams({ csrfToken: victim.csrfToken, callbackUrl: last }) })
    await response.arrayBuffer()
    const since = performance.now()
    if (response.status !== 302 || !response.headers.getSetCookie().some((line) => line.startsWith("authjs.session-token=;"))) {
      throw new Error(`sign-out on instance ${instances} answered ${response.status} without clearing the session cookie`)
    }
    return Promise.all(probed.map((base) => untilSignedOut(base, victim.cookie, since)))
  })()

  const settled = await Promise.allSettled([revocation, ...loads])
  const failed = settled.find((outcome) => outcome.status === "rejected")
  if (failed) throw failed.reason
  const [delays, ...results] = settled.map((outcome) => outcome.value)
  const appErrors = await Promise.all(children.map(errorsOf))

  const delay = (found) => (found === undefined ? `still signed in after ${PROBE_MAX_REQUESTS} requests or ${PROBE_MAX_MS / 1000} s` : `${found.request === 1 ? "next request" : `request ${found.request}`} (${found.ms.toFixed(1)} ms after the sign-out answered)`)
  const failuresOf = (result) => result["4xx"] + result["5xx"] + result.errors + result.timeouts + result.mismatches
  const rows = bases.map((base, i) => {
    const number = i + 1
    const roles = []
    if (number === 1) roles.push(`signed ${names.length} users in`)
    if (number > 1) roles.push("session reads under load")
    if (number === instances) roles.push("signed one user out")
    const result = number > 1 ? results[i - 1] : undefined
    const cells = result ? [result.requests.average.toFixed(0), `${result.latency.p50} ms`, `${result.latency.p99} ms`, String(failuresOf(result))] : ["–", "–", "–", "0"]
    return [String(number), roles.join("; "), ...cells, number === instances ? "– (revoked here)" : delay(delays[i])]
  })
  const total = results.reduce((sum, result) => sum + result.requests.average, 0)
  const totalFailures = results.reduce((sum, result) => sum + failuresOf(result), 0)
  rows.push(["all", "", total.toFixed(0), "", "", String(totalFailures), ""])

  console.log(`\nsoak --instances ${instances} (${seconds} s; ${readers.length} × ${connections} connections; GET /auth/session for ${LOAD_USERS} users; database sessions, @auth/pg-adapter on PostgreSQL at 127.0.0.1:5432)`)
  console.log(`machine: ${machineLine()}\n`)
  console.log("| instance | role | requests/s | p50 latency | p99 latency | failures | revocation delay |")
  console.log("|---|---|---:|---:|---:|---:|---|")
  for (const row of rows) console.log(`| ${row.join(" | ")} |`)
  console.log(`\nerrors logged by the instances: ${appErrors.join(", ")}`)
  return 0
}
