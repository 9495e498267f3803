// One measured password operation in a fresh process, for bench/passwords.mjs. The first call is
// the cold one: its peak memory is the process's peak RSS (or workerd's VmHWM) over its RSS just
// before the call, so each operation's memory is its own. CPU time is measured on the following
// warm calls: process.cpuUsage() on Node and edge-runtime (all threads, so node:crypto's thread
// pool counts), and the workerd process's scheduler time (/proc/<pid>/task/*/schedstat, in ns)
// on workerd, net of an empty request measured the same way.
//   node bench/passwords-child.mjs '{"runtime":"node"|"edge"|"workerd","file":…,"op":"hash"|"verify","stored":…,"flags":[…],"runs":3}'
import { readFileSync, readdirSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

const task = JSON.parse(process.argv[2])
const PASSWORD = "correct horse battery staple"
const body = (op) => JSON.stringify({ op, password: PASSWORD, stored: task.stored })

const cpuNs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) * 1000
}
const rssBytes = () => process.memoryUsage().rss
const peakBytes = () => process.resourceUsage().maxRSS * 1024

/** A runtime: `call(op)` runs one operation; `cpu`, `rss` and `peak` read its process. */
async function open() {
  if (task.runtime === "node") {
    const { hash, verify } = await import(pathToFileURL(resolve(task.file)).href)
    const call = async (op) => (op === "hash" ? { stored: await hash(PASSWORD) } : { valid: await verify(PASSWORD, task.stored) })
    return { call, cpu: cpuNs, rss: rssBytes, peak: peakBytes, close: async () => {} }
  }
  if (task.runtime === "edge") {
    const { EdgeRuntime } = await import("edge-runtime")
    const runtime = new EdgeRuntime({ initialCode: readFileSync(task.file, "utf8") })
    const call = async (op) => (await runtime.dispatchFetch("http://edge.local/", { method: "POST", body: body(op) })).json()
    return { call, cpu: cpuNs, rss: rssBytes, peak: peakBytes, close: async () => {} }
  }
  const { Miniflare } = await import("miniflare")
  const mf = new Miniflare({ modules: [{ type: "ESModule", path: resolve(task.file), contents: readFileSync(task.file, "utf8") }], compatibilityDate: "2024-09-23", compatibilityFlags: task.flags })
  const call = async (op) => (await mf.dispatchFetch("http://worker.local/", { method: "POST", body: body(op) })).json()
  await call("noop")
  const pid = workerdPid()
  const status = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024
  const cpu = () => readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]), 0)
  return { call, cpu, rss: () => status("VmRSS"), peak: () => status("VmHWM"), close: () => mf.dispose() }
}

/** The workerd process miniflare started: a child of this process named workerd. */
function workerdPid() {
  for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
    for (const child of readFileSync(`/proc/${process.pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      if (readFileSync(`/proc/${child}/comm`, "utf8").trim() === "workerd") return child
    }
  }
  throw new Error("no workerd process found under this one")
}

async function timed(runtime, op) {
  const start = runtime.cpu()
  const wallStart = performance.now()
  const result = await runtime.call(op)
  return { cpuMs: (runtime.cpu() - start) / 1e6, wallMs: performance.now() - wallStart, result }
}

const runtime = await open()
try {
  const rssBefore = runtime.rss()
  const cold = await timed(runtime, task.op)
  const peakMb = Math.max(0, runtime.peak() - rssBefore) / 1024 / 1024
  if (task.op === "verify" && cold.result.ok !== true && cold.result.valid !== true) throw new Error(`verify failed: ${JSON.stringify(cold.result)}`)
  const cpuMs = []
  const wallMs = []
  for (let i = 0; i < task.runs; i++) {
    // workerd's figure is net of an empty request (the dispatch itself), measured the same way.
    const empty = task.runtime === "workerd" ? (await timed(runtime, "noop")).cpuMs : 0
    const warm = await timed(runtime, task.op)
    cpuMs.push(warm.cpuMs - empty)
    wallMs.push(warm.wallMs)
  }
  process.stdout.write(JSON.stringify({ peakMb, cpuMs, wallMs, stored: cold.result.stored }))
} finally {
  await runtime.close()
}
