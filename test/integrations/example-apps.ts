// Support for the example-app suites (test/e2e/next-app.test.ts, test/e2e-node22/sveltekit-app.test.ts):
// install and build an app with its own toolchain, start it on a free port, wait for it, stop it by its
// process id, and launch Debian's Chromium. Nothing here knows either framework.
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { createServer } from "node:net"
import type { Browser } from "playwright-core"
import { launchChromium as launch, NO_CHROMIUM } from "../e2e/chromium.js"


/** Why an example-app suite cannot run here, or undefined when it can. */
export function unavailableReason(): string | undefined {
  const reasons = [
    NO_CHROMIUM,
    existsSync("dist/index.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)",
  ].filter((reason): reason is string => reason !== undefined)
  return reasons.length > 0 ? reasons.join("; ") : undefined
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A spawned process with everything it printed, for the failure message. */
export interface Spawned {
  child: ChildProcess
  output: () => string
}

/** Starts a command in its own process group (so stopping it ends its children too). */
export function start(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Spawned {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  return { child, output: () => output }
}

/** Runs a command to the end; throws with its output when it fails. Answers the seconds it took. */
export async function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<number> {
  const started = Date.now()
  const spawned = start(command, args, options)
  const code = await new Promise<number | null>((resolve) => spawned.child.on("exit", resolve))
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${code}:\n${spawned.output().slice(-4000)}`)
  return (Date.now() - started) / 1000
}

/** Stops a process started by {@link start}: its own process group, by its id. */
export async function stop(spawned: Spawned | undefined): Promise<void> {
  const pid = spawned?.child.pid
  if (pid === undefined || spawned!.child.exitCode !== null) return
  const exited = new Promise((resolve) => spawned!.child.once("exit", resolve))
  try {
    process.kill(-pid, "SIGTERM")
  } catch {
    return
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL")
    } catch {
      // already gone
    }
  }, 5000)
  await exited
  clearTimeout(timer)
}

/** Waits until `url` answers (any status), or throws with the process output after `timeoutMs`. */
export async function waitForHttp(url: string, spawned: Spawned, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (spawned.child.exitCode !== null) throw new Error(`the app exited (${spawned.child.exitCode}):\n${spawned.output().slice(-4000)}`)
    try {
      await fetch(url, { redirect: "manual" })
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${spawned.output().slice(-4000)}`)
}

/** Debian's Chromium, headless, with nothing that reaches the network by itself. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync("test-results", { recursive: true })
  return launch()
}
