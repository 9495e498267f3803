// The runtime matrix: the same conformance suite on Node (the Node running this test: 20, 22 or
// 24 in CI), on Vercel Edge (edge-runtime, in-process) and on Cloudflare Workers (real workerd via
// miniflare). Each runtime gets latchkey bundled the way its toolchain would, and must load the
// crypto backend its export conditions select.
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { promisify } from "node:util"
import * as authjs from "@auth/core/jwt"
import { EdgeRuntime } from "edge-runtime"
import { build } from "esbuild"
import { Miniflare } from "miniflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import type { ConformanceInput, ConformanceResult } from "./conformance.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"
const REDIRECT = "https://app.example/auth/callback/conformance"
const OUT = ".cache/runtime"
let server: OidcServer
let input: ConformanceInput

beforeAll(async () => {
  if (!existsSync("dist/index.js")) throw new Error("the runtime matrix runs against dist/: build first (npm test does)")
  server = await startOidcServer({ clients: [{ client_id: "rt", client_secret: "rt-secret", redirect_uris: [REDIRECT], grant_types: ["authorization_code"] }] })
  const authjsClaims = { sub: "from-authjs", name: "Auth.js" }
  input = {
    secret: SECRET,
    authjsToken: await authjs.encode({ token: authjsClaims, secret: SECRET, salt: "authjs.session-token" }),
    authjsClaims,
    issuer: server.issuer,
    clientId: "rt",
    clientSecret: "rt-secret",
    redirectUri: REDIRECT,
  }
  mkdirSync(OUT, { recursive: true })
}, 60_000)

afterAll(async () => {
  await server?.close()
})

async function bundle(entry: string, options: { platform: "node" | "neutral"; format: "esm" | "iife"; conditions: string[]; external?: string[] }): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    write: false,
    logLevel: "silent",
    mainFields: ["module", "main"],
    // The project tsconfig maps #crypto-backend for typechecking; an app's bundler never sees it.
    tsconfig: "test/runtime/tsconfig.bundle.json",
    ...options,
  })
  return result.outputFiles[0]!.text
}

async function expectConformant(result: ConformanceResult, backend: string): Promise<void> {
  expect(result.checks).toHaveLength(5)
  for (const check of result.checks) expect(check.ok, `${check.name}: ${check.detail ?? ""}`).toBe(true)
  expect(result.backend).toBe(backend)
  expect(await authjs.decode({ token: result.encodedHere, secret: SECRET, salt: "authjs.session-token" })).toMatchObject({ sub: "from-runtime" })
}

describe("runtime matrix", () => {
  it(`Node ${process.versions.node}: loads the node:crypto backend and passes every check`, async () => {
    const code = await bundle(
      `import { runConformance } from "./test/runtime/conformance.ts"\nrunConformance(JSON.parse(process.argv[2])).then((r) => process.stdout.write(JSON.stringify(r)))`,
      { platform: "node", format: "esm", conditions: ["node"], external: ["latchkey", "latchkey/*"] }
    )
    writeFileSync(`${OUT}/node.mjs`, code)
    const { stdout } = await promisify(execFile)(process.execPath, [`${OUT}/node.mjs`, JSON.stringify(input)])
    await expectConformant(JSON.parse(stdout) as ConformanceResult, "node")
  }, 60_000)

  it("Vercel Edge (edge-runtime): loads the WebCrypto backend and passes every check", async () => {
    const code = await bundle(
      `import { handle } from "./test/runtime/worker-entry.ts"\naddEventListener("fetch", (event) => event.respondWith(handle(event.request)))`,
      { platform: "neutral", format: "iife", conditions: ["edge-light", "worker", "browser"] }
    )
    expect(code).not.toMatch(/from ?"node:|require\("node:/)
    const runtime = new EdgeRuntime({ initialCode: code })
    const response = await runtime.dispatchFetch("http://edge.local/", { method: "POST", body: JSON.stringify(input) })
    await expectConformant((await response.json()) as ConformanceResult, "webcrypto")
  }, 60_000)

  it("Cloudflare Workers (workerd via miniflare): loads the WebCrypto backend and passes every check", async () => {
    const code = await bundle(`export { default } from "./test/runtime/worker-entry.ts"`, {
      platform: "neutral",
      format: "esm",
      conditions: ["workerd", "worker", "browser"],
    })
    const mf = new Miniflare({ modules: true, script: code, compatibilityDate: "2024-09-23" })
    try {
      const response = await mf.dispatchFetch("http://worker.local/", { method: "POST", body: JSON.stringify(input) })
      await expectConformant((await response.json()) as ConformanceResult, "webcrypto")
    } finally {
      await mf.dispose()
    }
  }, 90_000)
})
