// `npm run bench -- rate-limits-instructions`: the sign-in path's cost in instructions, counted by
// valgrind's callgrind, with the rate limiter off, off again (the control), and on with the memory
// store. Times on a shared machine move with its load; instruction counts do not, so this is the
// figure to read beside the timed bench (bench/rate-limits.mjs).
//
// Each case runs in its own process under callgrind, with Node's --single-threaded: the garbage
// collector and the JIT compiler then work on the one thread, so every instruction the work costs
// is counted, and the same case counts the same total run after run (with helper threads, how
// much of their work landed in the measured window moved the ratio by several per cent). Every
// app signs in WARM_UP times first, all alike, so the JIT has compiled the same code and settled
// (after a few hundred sign-ins it was still recompiling: the measure was the compiler's); the
// counters are dumped and reset, then one app signs in SIGN_INS times and the counters are dumped
// again. Needs valgrind; skipped with a reason without it. Slow: about five minutes on 2 cores.
import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { machineWithLoad } from "./method.mjs"

const WARM_UP = 6000
const SIGN_INS = 2000
const VARIANTS = ["off", "control", "memory"]
const child = process.argv.indexOf("--child")

if (child === -1) {
  if (spawnSync("valgrind", ["--version"]).status !== 0) {
    console.log("rate-limits instructions: valgrind is not installed, skipped")
    process.exit(0)
  }
  const directory = mkdtempSync(join(tmpdir(), "latchkey-callgrind-"))
  const run = (variant) =>
    new Promise((resolve, reject) =>
      execFile("valgrind", ["--tool=callgrind", `--callgrind-out-file=${directory}/${variant}.%p`, process.execPath, "--single-threaded", "bench/rate-limits-instructions.mjs", "--child", variant], { maxBuffer: 1 << 24 }, (error) => (error ? reject(error) : resolve(variant))),
    )
  // One case per core at a time: counts do not depend on what else runs.
  await Promise.all([run(VARIANTS[0]), run(VARIANTS[1]).then(() => run(VARIANTS[2]))])
  const counts = {}
  for (const variant of VARIANTS) {
    // Part 2 is the measured dump.
    const file = readdirSync(directory).find((name) => name.startsWith(`${variant}.`) && name.endsWith(".2"))
    counts[variant] = Number(/^totals: (\d+)/m.exec(readFileSync(join(directory, file), "utf8"))?.[1] ?? NaN) / SIGN_INS
  }
  rmSync(directory, { recursive: true, force: true })
  const k = (value) => `${(value / 1000).toFixed(1)}k`
  console.log(`rate-limits instructions (callgrind, --single-threaded, ${SIGN_INS} sign-ins after ${WARM_UP} of each app): ${machineWithLoad()}`)
  console.log(`  sign-in, off                ${k(counts.off)} instructions per call`)
  console.log(`  sign-in, off again          ${k(counts.control)} instructions per call`)
  console.log(`  sign-in, memory             ${k(counts.memory)} instructions per call`)
  console.log(`  sign-in path, memory store on / off, instructions: ${(counts.memory / counts.off).toFixed(3)}× (the limiter: ${k(counts.memory - counts.off)} per sign-in)`)
  console.log(`  control, off again / off, instructions:             ${(counts.control / counts.off).toFixed(3)}×`)
} else {
  const { signInApps } = await import("./rate-limits-apps.mjs")
  const { apps, signIn } = await signInApps({ redis: false, controls: ["control"] })
  for (let i = 0; i < WARM_UP; i++) for (const auth of Object.values(apps)) await signIn(auth)()
  const dump = (name) => promisify(execFile)("callgrind_control", [`--dump=${name}`, String(process.pid)])
  const measured = signIn(apps[process.argv[child + 1]])
  await dump("warm")
  for (let i = 0; i < SIGN_INS; i++) await measured()
  await dump("measured")
}
