// Two app processes, each with its own createAuth, sharing provider-token refreshes through the
// real Redis (skipped, saying why, when it does not answer): 25 concurrent reads in each of a
// session whose access token is due make exactly one refresh at the provider, and both processes
// see the same new token. The instance is bundled from TypeScript with esbuild, as bench/ does.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import Redis from "ioredis"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { ORIGIN, SECRET } from "../security/support.js"
import { probeRedis, refreshingProvider, requestFrom, signedIn } from "../tokens/support.js"
import { providerTokens } from "../../src/provider-tokens/index.js"

const idp = refreshingProvider()

const skip = await probeRedis()
if (skip) console.info(`skipped: ${skip}`)

/** Starts an instance and resolves once it is ready to be told to go. */
function startInstance(script: string, env: Record<string, string>): Promise<{ child: ChildProcessWithoutNullStreams; output: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] })
    onTestFinished(() => void child.kill())
    let stdout = ""
    let stderr = ""
    let ready = false
    const output = new Promise<string>((done, fail) => {
      child.once("close", (code) => (code === 0 ? done(stdout) : fail(new Error(`instance exited with ${code}: ${stderr}`))))
    })
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk))
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk
      if (!ready && stdout.includes("ready\n")) {
        ready = true
        resolve({ child, output })
      }
    })
    child.once("error", reject)
    output.catch(reject)
  })
}

describe.skipIf(skip !== undefined)("two app processes sharing Redis", () => {
  // Inside the repository, so the bundle's bare imports (ioredis, jose, oauth4webapi) resolve to node_modules.
  mkdirSync(".cache/test", { recursive: true })
  const outdir = mkdtempSync(join(".cache/test", "instances-"))
  const script = join(process.cwd(), outdir, "instance.mjs")
  const prefix = `lk_test_${randomBytes(5).toString("hex")}:`
  beforeAll(async () => {
    const backend = fileURLToPath(new URL("../../src/jwt/backend/node.ts", import.meta.url))
    await build({
      entryPoints: [fileURLToPath(new URL("./fixtures/refresh-instance.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      outfile: script,
      logLevel: "error",
      plugins: [{ name: "crypto-backend", setup: (b) => b.onResolve({ filter: /^#crypto-backend$/ }, () => ({ path: backend })) }],
    })
  })
  afterAll(async () => {
    rmSync(outdir, { recursive: true, force: true })
    const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 1 })
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })

  it("make exactly one refresh at the provider, and both see the new token", async () => {
    const { browser } = await signedIn(idp(), { providerTokens: providerTokens({ refresh: true }) })
    const cookie = requestFrom(browser).headers.get("cookie")!
    const env = { ISSUER: idp().server.issuer, COOKIE: cookie, PREFIX: prefix, SECRET, ORIGIN }
    const instances = await Promise.all([startInstance(script, env), startInstance(script, env)])
    const grants = idp().refreshGrants()
    const refused = idp().refusedRefreshes().length
    for (const { child } of instances) child.stdin.write("go\n")
    const outputs = await Promise.all(instances.map(({ output }) => output))
    const tokens = outputs.flatMap((output) => (JSON.parse(output.trim().split("\n").pop()!) as { tokens: (string | null)[] }).tokens)
    expect(tokens).toHaveLength(50)
    expect(idp().refreshGrants() - grants).toBe(1)
    expect(idp().refusedRefreshes().slice(refused)).toEqual([])
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).toEqual(expect.any(String))
  }, 60_000)
})
