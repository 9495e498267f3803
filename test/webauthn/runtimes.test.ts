// The passkey verification path on the server runtimes latchkey supports: Vercel Edge
// (edge-runtime, in-process) and Cloudflare Workers (real workerd via miniflare), besides the Node
// running the other tests. latchkey/webauthn and @simplewebauthn/server are bundled from dist/ the
// way each runtime's toolchain would, and must verify the recorded Ed25519 and ES256 responses.
import { existsSync } from "node:fs"
import { EdgeRuntime } from "edge-runtime"
import { build } from "esbuild"
import { Miniflare } from "miniflare"
import { beforeAll, describe, expect, it } from "vitest"
import { fixtures } from "./support.js"

const input = {
  rp: { id: fixtures.rpId, name: "fixtures", origins: [fixtures.origin] },
  registrations: fixtures.registrations,
  assertions: fixtures.assertions,
}

beforeAll(() => {
  if (!existsSync("dist/webauthn.js")) throw new Error("the passkey runtime checks run against dist/: build first (npm test does)")
})

async function bundle(entry: string, format: "esm" | "iife", conditions: string[]): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    write: false,
    logLevel: "silent",
    platform: "neutral",
    format,
    conditions,
    mainFields: ["module", "main"],
    tsconfig: "test/runtime/tsconfig.bundle.json",
  })
  return result.outputFiles[0]!.text
}

function expectVerified(results: Record<string, any>): void {
  expect(Object.keys(results).sort()).toEqual(
    ["authenticate ada1", "authenticate ada2", "authenticate grace1", "authenticate with another user's key", "options", "register ada", "register grace"].sort()
  )
  expect(results["register ada"]).toMatchObject({ ok: true, value: { id: fixtures.registrations.ada.response.id, counter: 1 } })
  expect(results["register grace"]).toMatchObject({ ok: true, value: { id: fixtures.registrations.grace.response.id, counter: 1 } })
  expect(results["authenticate ada1"]).toMatchObject({ ok: true, value: { counter: 2, userVerified: true } })
  expect(results["authenticate ada2"]).toMatchObject({ ok: true, value: { counter: 3 } })
  expect(results["authenticate grace1"]).toMatchObject({ ok: true, value: { counter: 2 } })
  expect(results["authenticate with another user's key"]).toEqual({ ok: false, name: "WebAuthnError", reason: "verification_failed" })
  expect(results["options"]).toMatchObject({ ok: true, value: { rpId: "localhost", challenge: fixtures.assertions.ada1.challenge } })
}

describe("the passkey verification path on other runtimes", () => {
  it("Vercel Edge (edge-runtime): verifies the recorded registrations and assertions", async () => {
    const code = await bundle(`import { handle } from "./test/webauthn/runtime-entry.ts"\naddEventListener("fetch", (event) => event.respondWith(handle(event.request)))`, "iife", ["edge-light", "worker", "browser"])
    expect(code).not.toMatch(/from ?"node:|require\("node:/)
    const runtime = new EdgeRuntime({ initialCode: code })
    const response = await runtime.dispatchFetch("http://edge.local/", { method: "POST", body: JSON.stringify(input) })
    expectVerified((await response.json()) as Record<string, any>)
  }, 60_000)

  it("Cloudflare Workers (workerd via miniflare): verifies the recorded registrations and assertions", async () => {
    const code = await bundle(`export { default } from "./test/webauthn/runtime-entry.ts"`, "esm", ["workerd", "worker", "browser"])
    const mf = new Miniflare({ modules: true, script: code, compatibilityDate: "2024-09-23" })
    try {
      const response = await mf.dispatchFetch("http://worker.local/", { method: "POST", body: JSON.stringify(input) })
      expectVerified((await response.json()) as Record<string, any>)
    } finally {
      await mf.dispose()
    }
  }, 90_000)
})
