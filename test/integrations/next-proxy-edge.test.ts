// The Next.js proxy helper on the edge runtime (middleware.ts with `runtime: "edge"`, and Vercel
// Edge): latchkey/next bundled the way Next bundles middleware (the edge-light condition), run in
// edge-runtime, deciding from a session cookie made by a real sign-in. next/headers is left to the
// app's bundler, as in an app; the proxy never loads it.
import { build } from "esbuild"
import { EdgeRuntime } from "edge-runtime"
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { serverActions } from "../../src/integrations/next/actions.js"
import Credentials from "../../src/providers/credentials.js"

const SECRET = "latchkey-next-edge-test-secret-0123456789abcdef"
const APP = "https://app.example.com"
const users = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" } : null) })

const ENTRY = `
import { Latchkey } from "latchkey/next"
const { proxy } = Latchkey({ providers: [], secret: ${JSON.stringify(SECRET)}, env: { AUTH_URL: ${JSON.stringify(APP)} } })
const gate = proxy({ authorized: ({ auth }) => auth?.user?.email === "ada@example.com" })
addEventListener("fetch", (event) => event.respondWith(gate(event.request).then((answer) => answer ?? new Response("through"))))
`

/** A session cookie for Ada, signed in through the handler the way a server action does it. */
async function adaCookie(): Promise<string> {
  const instance = createAuth({ providers: [users], secret: SECRET, env: { AUTH_URL: APP } })
  const written: string[] = []
  const store = { getAll: () => [], set: (cookie: { name: string; value: string }) => void written.push(`${cookie.name}=${encodeURIComponent(cookie.value)}`) }
  const headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https" })
  const { signIn } = serverActions(instance, { basePath: "/auth" }, { headers: async () => headers, cookies: async () => store })
  await expect(signIn("credentials", { username: "ada" })).resolves.toMatchObject({ ok: true })
  return written.join("; ")
}

describe("latchkey/next proxy on the edge runtime", () => {
  it("bundles with no Node built-in and decides from the cookie alone", async () => {
    const result = await build({
      stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: "ts" },
      bundle: true,
      write: false,
      logLevel: "silent",
      platform: "neutral",
      format: "iife",
      conditions: ["edge-light", "worker", "browser"],
      mainFields: ["module", "main"],
      external: ["next/*"],
      tsconfig: "test/runtime/tsconfig.bundle.json",
    })
    const code = result.outputFiles[0]!.text
    expect(code).not.toMatch(/from ?"node:|require\("node:/)
    const runtime = new EdgeRuntime({ initialCode: code })
    const signedIn = await runtime.dispatchFetch(`${APP}/protected`, { headers: { cookie: await adaCookie() } })
    expect([signedIn.status, await signedIn.text()]).toEqual([200, "through"])
    const signedOut = await runtime.dispatchFetch(`${APP}/protected`)
    expect(signedOut.status).toBe(307)
    expect(signedOut.headers.get("location")).toBe(`${APP}/auth/signin?callbackUrl=%2Fprotected`)
  }, 60_000)
})
