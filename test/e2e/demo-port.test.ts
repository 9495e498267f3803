// `npm run demo` (examples/demo.mjs) as a newcomer runs it: PORT picks the app's port, and a port
// that is taken gives one clear line and a non-zero exit instead of a stack trace. The app listens
// only once its handler exists, so a request that comes in while it starts is refused, never left
// hanging.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { describe, expect, it, onTestFinished } from "vitest"

const built = existsSync("dist/index.js")
const unbuilt = "no build in dist/ (run npm run build, or npm test, which builds first)"

/** A server holding a free port on localhost, as the demo app binds it. */
function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject).listen(0, "localhost", () => {
      const address = server.address()
      if (address === null || typeof address === "string") return reject(new Error("no port"))
      resolve({ server, port: address.port })
    })
  })
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/** Runs the demo with `env`; resolves once `until` matches stdout (then stops it) or it exits. */
function runDemo(env: Record<string, string>, until?: RegExp, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["examples/demo.mjs", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    // A demo that never exits (one that ignores PORT, say) must not outlive its test.
    onTestFinished(() => void child.kill())
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk
      if (until?.test(stdout)) child.kill()
    })
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk))
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, stdout, stderr }))
  })
}

describe("npm run demo", () => {
  it("prints one clear line and exits non-zero when PORT is taken", async (context) => {
    if (!built) {
      console.warn(`skipping the demo port test: ${unbuilt}`)
      context.skip(unbuilt)
    }
    const { server, port } = await holdPort()
    try {
      const { code, stdout, stderr } = await runDemo({ PORT: String(port) })
      expect(code).toBe(1)
      expect(stdout).toBe("")
      // oidc-provider may warn about the Node version on import; that line is not ours.
      const lines = stderr.split("\n").filter((line) => line !== "" && !line.startsWith("oidc-provider WARNING"))
      expect(lines).toEqual([`Port ${port} is already in use: stop what runs there, or pick another with PORT=${port + 1} npm run demo.`])
      expect(stderr).not.toMatch(/EADDRINUSE|\n\s+at /)
    } finally {
      await close(server)
    }
  }, 30_000)

  it("serves on PORT", async (context) => {
    if (!built) {
      console.warn(`skipping the demo port test: ${unbuilt}`)
      context.skip(unbuilt)
    }
    // Take a free port, release it, and hand it to the demo.
    const { server, port } = await holdPort()
    await close(server)
    const { stdout } = await runDemo({ PORT: String(port) }, /Ctrl\+C to stop/)
    expect(stdout).toContain(`App:      http://localhost:${port}`)
  }, 30_000)

  it("rejects a PORT that is not a port number", async (context) => {
    if (!built) {
      console.warn(`skipping the demo port test: ${unbuilt}`)
      context.skip(unbuilt)
    }
    const { code, stderr } = await runDemo({ PORT: "abc" })
    expect(code).toBe(1)
    expect(stderr).toContain('PORT must be a port number (0-65535), not "abc".')
  }, 30_000)
})

describe("npm run demo -- --db", () => {
  it("signs in with a database session in PGlite, through the real Drizzle adapter", async (context) => {
    if (!built) {
      console.warn(`skipping the database demo test: ${unbuilt}`)
      context.skip(unbuilt)
    }
    const { code, stdout } = await runDemo({}, undefined, ["--smoke", "--db"])
    expect(code).toBe(0)
    const printed = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { session: { user: { email: string } } }
    expect(printed.session.user.email).toBe("ada@example.com")
  }, 60_000)
})

describe("the demo app starting up", () => {
  it("refuses connections until it can answer them: a request during startup never hangs", async (context) => {
    if (!built) {
      console.warn(`skipping the demo startup test: ${unbuilt}`)
      context.skip(unbuilt)
    }
    const { startDemo } = await import("../../examples/demo-app.mjs")
    const { server, port } = await holdPort()
    await close(server)
    let started = false
    const starting = startDemo({ port }).finally(() => (started = true))
    onTestFinished(async () => (await starting).close())
    // Knock until the demo is up. Before it listens a knock is refused; once it accepts one, the
    // handler must answer it. A knock that never gets an answer is the bug: the abort says so.
    const answered: number[] = []
    while (!started) {
      try {
        const response = await fetch(`http://localhost:${port}/auth/providers`, { signal: AbortSignal.timeout(15_000) })
        answered.push(response.status)
        await response.body?.cancel()
      } catch (error) {
        if (error instanceof DOMException && error.name === "TimeoutError") throw new Error("a request made while the demo started was accepted and never answered")
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(answered.every((status) => status === 200)).toBe(true)
    expect((await fetch(`http://localhost:${port}/auth/providers`)).status).toBe(200)
  }, 60_000)
})
