// The measuring method every comparison in bench/ uses, so its figures survive a noisy machine.
// Contenders run interleaved, one timed slice each per round (peer, latchkey, raw, then again), with
// the starting contender rotating from round to round; every ratio is taken within one round, where
// the contenders saw the same machine, and reported as the median over the rounds with its range.
// A single unlucky slice moves one round's ratio, not the headline. Tables print under the machine
// line, and `--readme` prints only the lines the README quotes.
import { cpus, loadavg } from "node:os"

/** `npm run bench -- --readme` (or BENCH_README=1): print only what the README quotes. */
export const README_MODE = process.argv.includes("--readme") || process.env.BENCH_README === "1"

/** "CPU model, N cores, Node x.y.z" for the heading of a printed table. */
export function machineLine() {
  const cores = cpus()
  return `${cores[0]?.model.trim() ?? "unknown CPU"}, ${cores.length} cores, Node ${process.versions.node}`
}

/** The machine line with the load average, so a reader can tell a busy machine's figures. */
export function machineWithLoad() {
  const [one, five] = loadavg()
  return `${machineLine()}; load average ${one.toFixed(1)} (1 min), ${five.toFixed(1)} (5 min)`
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** "1.23× (1.10–1.31×)": the median of per-round values and their range. */
export function ratioText(values, digits = 2) {
  return `${median(values).toFixed(digits)}× (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}×)`
}

/** "0.93 (0.90–0.95)": a fraction the same way, without the × sign. */
export function fractionText(values) {
  return `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`
}

/** µs with the precision its size deserves. */
export function us(value) {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}

/**
 * Mean µs per call of `fn` over one slice of `ms`: calls run in batches between clock reads (the
 * clock read costs about as much as a tenth of a token read), each call awaited before the next.
 */
async function slice(fn, ms, batch) {
  return (await timedSlice(fn, ms, batch)).wall
}

/** {@link slice}, with the process's CPU time (user + system, every thread) per call beside the wall time. */
async function timedSlice(fn, ms, batch) {
  let calls = 0
  const cpuStart = process.cpuUsage()
  const start = performance.now()
  const end = start + ms
  let now = start
  while (now < end) {
    for (let i = 0; i < batch; i++) await fn()
    calls += batch
    now = performance.now()
  }
  const cpu = process.cpuUsage(cpuStart)
  return { wall: ((now - start) * 1000) / calls, cpu: (cpu.user + cpu.system) / calls }
}

/** A batch size that takes about 1 ms, found while warming `fn` up. */
async function calibrate(fn, warmupMs) {
  let batch = 1
  const end = performance.now() + warmupMs
  while (performance.now() < end) {
    const start = performance.now()
    for (let i = 0; i < batch; i++) await fn()
    if (performance.now() - start < 1 && batch < 1 << 16) batch *= 2
  }
  return batch
}

/**
 * Runs `contenders` ({ name: fn }) interleaved for `rounds` rounds of `sliceMs` each, after a
 * warm-up of each; answers { [name]: [µs per call in round 0, round 1, …] }.
 */
export async function interleave(contenders, { rounds = 7, sliceMs = 300, warmupMs = 300 } = {}) {
  const names = Object.keys(contenders)
  const batches = {}
  for (const name of names) batches[name] = await calibrate(contenders[name], warmupMs)
  const times = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]
      times[name][round] = await slice(contenders[name], sliceMs, batches[name])
    }
  }
  return times
}

/**
 * {@link interleave}, measuring each slice twice over: wall time and the process's CPU time per
 * call. On a machine other processes share, CPU time is not stretched by the waits for a core that
 * wall time includes (it still carries cache and frequency effects). Answers { wall, cpu }, each
 * { [name]: [µs per call in round 0, round 1, …] }.
 */
export async function interleaveWithCpu(contenders, { rounds = 7, sliceMs = 300, warmupMs = 300 } = {}) {
  const names = Object.keys(contenders)
  const batches = {}
  for (const name of names) batches[name] = await calibrate(contenders[name], warmupMs)
  const wall = Object.fromEntries(names.map((name) => [name, []]))
  const cpu = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]
      const measured = await timedSlice(contenders[name], sliceMs, batches[name])
      wall[name][round] = measured.wall
      cpu[name][round] = measured.cpu
    }
  }
  return { wall, cpu }
}

/**
 * Runs `contenders` ({ name: fn }) call by call: each step calls every contender once, in a fresh
 * random order, timing each call alone. A slice of a few hundred ms lets one contender meet a
 * garbage collection or a burst of load another slice missed; interleaving single calls gives
 * every contender the same machine at the same moments, so small differences survive the noise.
 * The steps are cut into `blocks`; answers { [name]: [median µs per call in block 0, block 1, …] }.
 */
export async function interleaveCalls(contenders, { blocks = 21, callsPerBlock = 1000, warmUpCalls = 2000 } = {}) {
  const names = Object.keys(contenders)
  for (let i = 0; i < warmUpCalls; i++) for (const name of names) await contenders[name]()
  const medians = Object.fromEntries(names.map((name) => [name, []]))
  const order = [...names]
  for (let block = 0; block < blocks; block++) {
    const times = Object.fromEntries(names.map((name) => [name, []]))
    for (let call = 0; call < callsPerBlock; call++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1))
        ;[order[i], order[j]] = [order[j], order[i]]
      }
      for (const name of order) {
        const start = performance.now()
        await contenders[name]()
        times[name].push((performance.now() - start) * 1000)
      }
    }
    for (const name of names) medians[name].push(median(times[name]))
  }
  return medians
}

/** Per-round ratios `over[i] / under[i]`. */
export function perRound(over, under) {
  return over.map((time, i) => time / under[i])
}
