// `npm run bench -- rate-limits-instructions`: the sign-in path's cost in instructions, counted by
// valgrind's callgrind, with the rate limiter off and with the memory store. Times on a shared
// machine move with its load; instruction counts barely do, so this is the figure to read beside
// the timed bench (bench/rate-limits.mjs) when the load average is high. Each case runs in its
// own process under callgrind: both apps warm up alike (so the JIT has compiled the same code),
// the counters are dumped and reset, then one app signs in SIGN_INS times and the counters are
// dumped again. Printed per sign-in: the main thread (the handler's own work) and every thread
// (with the compiler's and the garbage collector's helpers, which vary more from run to run).
// Needs valgrind; skipped with a reason without it. Slow: a few minutes per case.
import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { machineWithLoad } from "./method.mjs"

const WARM_UP = 150
const SIGN_INS = 200
const child = process.argv.indexOf("--child")

if (child === -1) {
  if (spawnSync("valgrind", ["--version"]).status !== 0) {
    console.log("rate-limits instructions: valgrind is not installed, skipped")
    process.exit(0)
  }
  const directory = mkdtempSync(join(tmpdir(), "latchkey-callgrind-"))
  const counts = {}
  const run = (variant) =>
    new Promise((resolve, reject) =>
      execFile("valgrind", ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${directory}/${variant}.%p`, process.execPath, "bench/rate-limits-instructions.mjs", "--child", variant], { maxBuffer: 1 << 24 }, (error) => (error ? reject(error) : resolve(variant))),
    )
  // The two cases run at once, one per core: on two cores this halves the wait, and counts do not
  // depend on what else runs.
  await Promise.all(["off", "memory"].map(run))
  for (const variant of ["off", "memory"]) {
    // Part 2 is the measured dump; one file per thread, thread 1 the main one.
    const files = readdirSync(directory).filter((file) => file.startsWith(`${variant}.`) && /\.2-\d+$/.test(file))
    const total = (file) => Number(/^totals: (\d+)/m.exec(readFileSync(join(directory, file), "utf8"))?.[1] ?? 0)
    counts[variant] = { main: files.filter((file) => file.endsWith("-01")).reduce((sum, file) => sum + total(file), 0) / SIGN_INS, all: files.reduce((sum, file) => sum + total(file), 0) / SIGN_INS }
  }
  rmSync(directory, { recursive: true, force: true })
  const k = (value) => `${(value / 1000).toFixed(0)}k`
  console.log(`rate-limits instructions (callgrind, ${SIGN_INS} sign-ins after ${WARM_UP} of each): ${machineWithLoad()}`)
  console.log(`  sign-in, off                ${k(counts.off.main)} instructions per call on the main thread (${k(counts.off.all)} on every thread)`)
  console.log(`  sign-in, memory             ${k(counts.memory.main)} instructions per call on the main thread (${k(counts.memory.all)} on every thread)`)
  console.log(`  sign-in path, memory store on / off, instructions: ${(counts.memory.main / counts.off.main).toFixed(3)}× main thread, ${(counts.memory.all / counts.off.all).toFixed(3)}× every thread`)
} else {
  const { signInApps } = await import("./rate-limits-apps.mjs")
  const { apps, signIn } = await signInApps({ redis: false })
  for (let i = 0; i < WARM_UP; i++) for (const auth of Object.values(apps)) await signIn(auth)()
  const dump = (name) => promisify(execFile)("callgrind_control", [`--dump=${name}`, String(process.pid)])
  const measured = signIn(apps[process.argv[child + 1]])
  await dump("warm")
  for (let i = 0; i < SIGN_INS; i++) await measured()
  await dump("measured")
}
