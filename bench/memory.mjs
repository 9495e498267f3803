// Memory per session check: latchkey's auth() against @auth/core answering the same session (JWT
// strategy, the same signed-in user, the same cookie a browser sends), each in its own child
// process, interleaved over rounds (@auth/core, latchkey, @auth/core, …), since a process's peak
// RSS is its own. Three figures per library:
//   peak RSS      process.resourceUsage().maxRSS after CHECKS (100k) session checks, each awaited;
//   capped        the same with both young generations held to the same size (CAPPED_SEMI_SPACE_MB).
//                 V8 grows the young generation with the allocation rate, and latchkey checks many
//                 times more sessions per second, so the default peak partly measures speed; the
//                 capped run leaves what the checks keep;
//   bytes/check   heap growth over a window of ALLOC_CHECKS checks run with the young generation
//                 made big enough that no GC runs inside it (checked: a GC in the window is an error),
//                 after a full GC: everything the checks allocated, garbage included.
// Run by `npm run soak` (and `npm run bench -- memory`); MEMORY_ROUNDS, MEMORY_CHECKS tune it.
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { machineWithLoad, median, perRound, ratioText, README_MODE } from "./method.mjs"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const ORIGIN = "https://app.example.com"
const ALLOC_CHECKS = Number(process.env.MEMORY_ALLOC_CHECKS ?? 300)
/** The semi-space both libraries get in the capped peak-RSS run, in MB. */
const CAPPED_SEMI_SPACE_MB = 4
/** Semi-space size for the allocation window, in MB: room for ALLOC_CHECKS checks without a scavenge. */
const ALLOC_SEMI_SPACE_MB = 128

/** One library's session check, ready to call: answers the session, or throws if it reads none. */
async function sessionCheck(library) {
  const user = { id: "8f1e2d3c", name: "Ada Lovelace", email: "ada@example.com", image: "https://example.com/ada.png" }
  const claims = { name: user.name, email: user.email, picture: user.image, sub: user.id }
  const cookieName = "__Secure-authjs.session-token"
  if (library === "latchkey") {
    const { createAuth } = await import("latchkey")
    const { encode } = await import("latchkey/jwt")
    const { auth } = createAuth({ secret: SECRET, trustHost: true, env: {}, providers: [], logger: { error: () => {}, warn: () => {} } })
    const token = await encode({ token: claims, secret: SECRET, salt: cookieName })
    const cookie = `theme=dark; ${cookieName}=${token}; _ga=GA1.1.1`
    // What an app's route does: auth() on the incoming request.
    return () => auth(new Request(`${ORIGIN}/dashboard`, { headers: { cookie } }))
  }
  const { Auth } = await import("@auth/core")
  const { encode } = await import("@auth/core/jwt")
  const config = { secret: SECRET, trustHost: true, basePath: "/api/auth", providers: [], session: { strategy: "jwt" }, logger: { error: () => {}, warn: () => {}, debug: () => {} } }
  const token = await encode({ token: claims, secret: SECRET, salt: cookieName })
  const cookie = `theme=dark; ${cookieName}=${token}; _ga=GA1.1.1`
  // What Auth.js v5's auth() does: Auth() answering GET /session for the request's cookies.
  return async () => (await Auth(new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie } }), config)).json()
}

async function child(library, mode, checks) {
  const check = await sessionCheck(library)
  const session = await check()
  if (session?.user?.email !== "ada@example.com") throw new Error(`${library} read no session: ${JSON.stringify(session)}`)
  if (mode === "rss" || mode === "capped") {
    const startRssMb = process.memoryUsage().rss / 1024 / 1024
    for (let i = 0; i < checks; i++) await check()
    return { startRssMb, peakRssMb: process.resourceUsage().maxRSS / 1024 }
  }
  const { PerformanceObserver } = await import("node:perf_hooks")
  for (let i = 0; i < 2_000; i++) await check() // warm: compiled code, filled caches
  // GC entries arrive asynchronously: each is stamped, and only those inside the window count.
  const collections = []
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()))
  observer.observe({ entryTypes: ["gc"] })
  globalThis.gc()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const start = performance.now()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < ALLOC_CHECKS; i++) await check()
  const after = process.memoryUsage().heapUsed
  const end = performance.now()
  await new Promise((resolve) => setTimeout(resolve, 20))
  observer.disconnect()
  const inside = collections.filter((entry) => entry.startTime >= start && entry.startTime <= end)
  if (inside.length > 0) throw new Error(`${inside.length} GC(s) (kinds ${inside.map((entry) => entry.detail?.kind).join(",")}) ran inside the allocation window: lower MEMORY_ALLOC_CHECKS or raise ALLOC_SEMI_SPACE_MB`)
  return { bytesPerCheck: (after - before) / ALLOC_CHECKS }
}

function runChild(library, mode, checks) {
  const flags =
    mode === "alloc" ? ["--expose-gc", `--max-semi-space-size=${ALLOC_SEMI_SPACE_MB}`, `--min-semi-space-size=${ALLOC_SEMI_SPACE_MB}`] : mode === "capped" ? [`--max-semi-space-size=${CAPPED_SEMI_SPACE_MB}`] : []
  const result = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), "--child", library, mode, String(checks)], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`${library} ${mode} child failed: ${result.stderr}`)
  return JSON.parse(result.stdout.trim().split("\n").at(-1))
}

/** Runs the interleaved comparison and prints its table; answers nothing. */
export async function memoryComparison({ rounds = Number(process.env.MEMORY_ROUNDS ?? 3), checks = Number(process.env.MEMORY_CHECKS ?? 100_000) } = {}) {
  const libraries = ["@auth/core", "latchkey"]
  const rss = { "@auth/core": [], latchkey: [] }
  const growth = { "@auth/core": [], latchkey: [] }
  const capped = { "@auth/core": [], latchkey: [] }
  const bytes = { "@auth/core": [], latchkey: [] }
  for (let round = 0; round < rounds; round++) {
    for (const library of round % 2 ? [...libraries].reverse() : libraries) {
      const { startRssMb, peakRssMb } = runChild(library, "rss", checks)
      rss[library].push(peakRssMb)
      growth[library].push(peakRssMb - startRssMb)
      capped[library].push(runChild(library, "capped", checks).peakRssMb)
      bytes[library].push(runChild(library, "alloc", checks).bytesPerCheck)
    }
  }
  const mb = (values) => `${median(values).toFixed(1)} MB (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`
  const kb = (values) => `${(median(values) / 1024).toFixed(1)} KB (${(Math.min(...values) / 1024).toFixed(1)}–${(Math.max(...values) / 1024).toFixed(1)})`
  console.log(`\nmemory per session check, JWT session (${rounds} interleaved rounds; each a fresh process per library; ${checks} checks for peak RSS, ${ALLOC_CHECKS} for bytes allocated)`)
  console.log(`machine: ${machineWithLoad()}\n`)
  console.log("| | latchkey auth() | @auth/core Auth() GET /session | latchkey ÷ @auth/core (median of rounds) |")
  console.log("|---|---:|---:|---:|")
  console.log(`| peak RSS after ${checks / 1000}k checks | ${mb(rss.latchkey)} | ${mb(rss["@auth/core"])} | ${ratioText(perRound(rss.latchkey, rss["@auth/core"]))} |`)
  console.log(`| peak RSS above the start (modules loaded, one check done) | ${mb(growth.latchkey)} | ${mb(growth["@auth/core"])} | ${ratioText(perRound(growth.latchkey, growth["@auth/core"]))} |`)
  console.log(`| peak RSS after ${checks / 1000}k checks, both young generations capped at ${CAPPED_SEMI_SPACE_MB} MB semi-spaces | ${mb(capped.latchkey)} | ${mb(capped["@auth/core"])} | ${ratioText(perRound(capped.latchkey, capped["@auth/core"]))} |`)
  console.log(`| bytes allocated per check | ${kb(bytes.latchkey)} | ${kb(bytes["@auth/core"])} | ${ratioText(perRound(bytes.latchkey, bytes["@auth/core"]))} |`)
  if (!README_MODE) console.log("\nPeak RSS includes each process's start-up (Node itself, the library's modules); bytes allocated include garbage.")
}

if (process.argv[2] === "--child") {
  const [, , , library, mode, checks] = process.argv
  console.log(JSON.stringify(await child(library, mode, Number(checks))))
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await memoryComparison()
}
