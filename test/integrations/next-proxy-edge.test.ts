// The Next.js proxy helper on the edge runtime (middleware.ts with `runtime: "edge"`, and Vercel
// Edge): latchkey/next bundled the way Next bundles middleware (the edge-light condition), run in
// edge-runtime, deciding from a session cookie made by a real sign-in. next/headers is left to the
// app's bundler, as in an app; the proxy never loads it. With database sessions there is no
// database on the edge: only a fresh cache copy, or a well-formed token bound to this browser
// (`unverified`, which the default lets through for the page's auth()), passes; any other cookie
// is signed out.
import { build } from "esbuild"
import { EdgeRuntime } from "edge-runtime"
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth } from "../../src/handler/index.js"
import { serverActions } from "../../src/integrations/next/actions.js"
import Credentials from "../../src/providers/credentials.js"
import { corpProvider, csrfOf, jarOf, post, secureApp } from "../security/support.js"

const SECRET = "latchkey-next-edge-test-secret-0123456789abcdef"
const APP = "https://app.example.com"
const users = Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" } : null) })

const ENTRY = `
import { Latchkey } from "latchkey/next"
const { proxy } = Latchkey({ providers: [], secret: ${JSON.stringify(SECRET)}, env: { AUTH_URL: ${JSON.stringify(APP)} } })
const gate = proxy({ authorized: ({ auth }) => auth?.user?.email === "ada@example.com" })
addEventListener("fetch", (event) => event.respondWith(gate(event.request).then((answer) => answer ?? new Response("through"))))
`

const DATABASE_ENTRY = `
import { Latchkey } from "latchkey/next"
import { memoryAdapter } from "latchkey/adapters"
const { proxy } = Latchkey({ providers: [], adapter: memoryAdapter(), session: { cache: { maxAge: 60 } }, secret: ${JSON.stringify(SECRET)}, env: { AUTH_URL: ${JSON.stringify(APP)} } })
const gate = proxy()
addEventListener("fetch", (event) => event.respondWith(gate(event.request).then((answer) => answer ?? new Response("through"))))
`

/** The proxy module as Next bundles it for the edge runtime, loaded in edge-runtime. */
async function edgeProxy(entry: string): Promise<{ code: string; runtime: EdgeRuntime }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
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
  return { code, runtime: new EdgeRuntime({ initialCode: code }) }
}

/** Ada's browser after a database-session sign-in at a real provider: its cookies, by name. */
const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const idp = corpProvider([ADA])

async function adaDatabaseCookies(): Promise<Record<string, string>> {
  const site = secureApp({ providers: [idp.provider()], adapter: memoryAdapter(), secret: SECRET, session: { cache: { maxAge: 60 } } })
  const browser = site.browser()
  idp.signInAs(ADA.sub)
  await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  return jarOf(browser)
}

const header = (cookies: Record<string, string>) => Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join("; ")

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
    const { code, runtime } = await edgeProxy(ENTRY)
    expect(code).not.toMatch(/from ?"node:|require\("node:/)
    const signedIn = await runtime.dispatchFetch(`${APP}/protected`, { headers: { cookie: await adaCookie() } })
    expect([signedIn.status, await signedIn.text()]).toEqual([200, "through"])
    const signedOut = await runtime.dispatchFetch(`${APP}/protected`)
    expect(signedOut.status).toBe(307)
    expect(signedOut.headers.get("location")).toBe(`${APP}/auth/signin?callbackUrl=%2Fprotected`)
  }, 60_000)

  it("with database sessions, passes a fresh cache copy or a token bound to this browser, and turns away any other cookie", async () => {
    const { runtime } = await edgeProxy(DATABASE_ENTRY)
    const gate = (cookies: Record<string, string>) => runtime.dispatchFetch(`${APP}/protected`, { headers: { cookie: header(cookies) } })
    const ada = await adaDatabaseCookies()
    const token = "__Secure-authjs.session-token"
    const cache = "__Secure-latchkey.session-cache"
    expect(Object.keys(ada)).toEqual(expect.arrayContaining([token, cache, "__Host-authjs.csrf-token"]))
    expect((await gate(ada)).status).toBe(200)
    const { [cache]: _copy, ...withoutCopy } = ada
    expect((await gate(withoutCopy)).status).toBe(200)
    const refused = [
      { ...withoutCopy, [token]: "garbage" },
      { ...withoutCopy, [token]: crypto.randomUUID() },
      // Ada's token in a browser whose CSRF cookie it was not bound to (planted from elsewhere).
      { [token]: withoutCopy[token]! },
      { ...withoutCopy, "__Host-authjs.csrf-token": (await adaDatabaseCookies())["__Host-authjs.csrf-token"]! },
    ]
    for (const cookies of refused) {
      const answer = await gate(cookies)
      expect([answer.status, answer.headers.get("location")]).toEqual([307, `${APP}/auth/signin?callbackUrl=%2Fprotected`])
    }
  }, 60_000)
})
