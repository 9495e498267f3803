// examples/next-app as a real app: installed from its own lock, built with `next build`, started
// with `next start`, and driven in Debian's Chromium against the embedded demo OpenID Provider.
// It proves, through the browser: the proxy turns a signed-out visitor away from the cookie alone
// and the callbackUrl brings them back; a server-action sign-in; useSession showing the user from
// the first server render; a sign-in through a server action and a sign-out in one tab reaching
// another; and a server action that signs out from inside a try/catch. The app is built the way
// create-next-app sets Next up (Cache Components on) and without its secrets, which it gets only
// when it starts, as a CI or Docker image build does. Screenshots go to test-results/.
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, launchChromium, run, start, stop, unavailableReason, waitForHttp, type Spawned } from "../integrations/example-apps.js"

const unavailable = unavailableReason()
// CI installs Chromium and builds first; there the suite must run, never skip.
const mustRun = process.env.CI === "true"
const SECRET = "next-app-example-secret-for-tests-0123456789"

let browser: Browser | undefined
let app: Spawned | undefined
let provider: { issuer: string; close(): Promise<void> } | undefined
let origin = ""

beforeAll(async () => {
  if (unavailable) {
    console.warn(`the Next.js example app suite is skipped: ${unavailable}`)
    return
  }
  const { prepareExample } = await import("../../scripts/examples.mjs")
  const { startDemoProvider } = await import("../../examples/demo-provider.mjs")
  const dir: string = prepareExample("next-app")
  const port = await freePort()
  origin = `http://localhost:${port}`
  provider = await startDemoProvider({ redirectUris: [`${origin}/auth/callback/demo`] })
  const env = { AUTH_SECRET: SECRET, AUTH_URL: origin, DEMO_ISSUER: provider.issuer, NEXT_TELEMETRY_DISABLED: "1" }
  const next = join(dir, "node_modules", "next", "dist", "bin", "next")
  // Built as a CI or Docker image is: the secrets and URLs come only at run time.
  const buildEnv = { NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: "", AUTH_URL: "", DEMO_ISSUER: "" }
  const seconds = await run(process.execPath, [next, "build"], { cwd: dir, env: buildEnv })
  console.log(`examples/next-app: next build took ${seconds.toFixed(1)} s`)
  app = start(process.execPath, [next, "start", "--port", String(port), "--hostname", "localhost"], { cwd: dir, env })
  await waitForHttp(`${origin}/auth/providers`, app)
  browser = await launchChromium()
}, 420_000)

afterAll(async () => {
  await browser?.close()
  await stop(app)
  await provider?.close()
})

/** A fresh browser profile: its own cookies, as a new visitor. */
async function visitor(): Promise<BrowserContext> {
  return browser!.newContext()
}

/** Completes the demo provider's pre-filled login. */
async function approveAtProvider(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
  await page.getByRole("button", { name: "Continue" }).click()
}

/** Signs in through the home page's server-action button; answers the page, back on the home page. */
async function signIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  await page.getByRole("button", { name: "Sign in with Demo (server action)" }).click()
  await approveAtProvider(page)
  await page.waitForURL(`${origin}/`)
  await expect(page.locator("#status").textContent()).resolves.toBe("Signed in as Ada Lovelace")
  return page
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(origin)).find((cookie) => cookie.name === "authjs.session-token")
}

describe.skipIf(unavailable !== undefined && !mustRun)("examples/next-app in Chromium", () => {
  afterAll(() => {
    // Cache Components (on in this app, as create-next-app sets it) logs a route that reads the
    // clock before it is marked per request; latchkey's auth() must not be that route.
    if (app) expect(app.output()).not.toMatch(/Date\.now\(\)|new Date\(\)|Route "\/[^"]*" used/)
  })

  it("has Chromium and a build to test", () => {
    expect(unavailable, "Chromium and dist/ are required in CI").toBeUndefined()
  })

  it("the proxy sends a signed-out visitor of /protected to sign in, and the callbackUrl brings them back", async () => {
    const context = await visitor()
    const page = await context.newPage()
    const answer = await page.request.get(`${origin}/protected`, { maxRedirects: 0 })
    expect(answer.status()).toBe(307)
    expect(answer.headers().location).toMatch(/\/auth\/signin\?callbackUrl=%2Fprotected$/)
    expect((await page.request.get(`${origin}/api/me`)).status()).toBe(401)
    await page.goto(`${origin}/protected`)
    expect(new URL(page.url()).pathname).toBe("/auth/signin")
    await page.screenshot({ path: "test-results/next-app-proxy-signin.png" })
    await page.getByRole("button", { name: "Sign in with Demo" }).click()
    await approveAtProvider(page)
    await page.waitForURL(`${origin}/protected`)
    await expect(page.locator("#protected-user").textContent()).resolves.toBe("Welcome, Ada Lovelace")
    await context.close()
  }, 60_000)

  it("signs in through a server action, and useSession shows the user from the first server render", async () => {
    const context = await visitor()
    const first = await context.newPage()
    await first.goto(`${origin}/`)
    await expect(first.locator("#status").textContent()).resolves.toBe("Not signed in")
    await first.close()
    const page = await signIn(context)
    await expect(page.locator("#email").textContent()).resolves.toBe("ada@example.com")
    // The server-rendered HTML already has the user: SessionProvider got the session from auth().
    const html = await (await page.request.get(`${origin}/`)).text()
    expect(html).toContain("Signed in as <!-- -->Ada Lovelace")
    // auth() with no argument in a route handler, too.
    const me = await page.request.get(`${origin}/api/me`)
    expect([me.status(), await me.json()]).toEqual([200, { name: "Ada Lovelace", email: "ada@example.com" }])
    expect(await sessionCookie(context)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    await page.screenshot({ path: "test-results/next-app-signed-in.png" })
    await context.close()
  }, 60_000)

  it("a server-action OAuth sign-in in one tab updates the other tab, which is neither reloaded nor focused", async () => {
    const context = await visitor()
    const other = await context.newPage()
    await other.goto(`${origin}/`)
    await expect(other.locator("#status").textContent()).resolves.toBe("Not signed in")
    await signIn(context)
    await other.locator("#status", { hasText: "Signed in as Ada Lovelace" }).waitFor({ timeout: 10_000 })
    await context.close()
  }, 60_000)

  it("a sign-out in one tab updates the other tab", async () => {
    const context = await visitor()
    const first = await signIn(context)
    const second = await context.newPage()
    await second.goto(`${origin}/`)
    await expect(second.locator("#status").textContent()).resolves.toBe("Signed in as Ada Lovelace")
    await first.getByRole("button", { name: "Sign out (client)" }).click()
    // The other tab is neither reloaded nor focused: the sign-out reaches it by broadcast.
    await second.locator("#status", { hasText: "Not signed in" }).waitFor({ timeout: 10_000 })
    await second.screenshot({ path: "test-results/next-app-other-tab-signed-out.png" })
    expect(await sessionCookie(context)).toBeUndefined()
    await context.close()
  }, 60_000)

  it("a server action signs out from inside a try/catch, and /protected is closed again", async () => {
    const context = await visitor()
    const page = await signIn(context)
    await page.goto(`${origin}/protected`)
    await expect(page.locator("#protected-user").textContent()).resolves.toBe("Welcome, Ada Lovelace")
    const logged = app!.output().length
    await page.getByRole("button", { name: "Sign out (server action)" }).click()
    await page.waitForURL(`${origin}/?signed-out=server`)
    await expect(page.locator("#status").textContent()).resolves.toBe("Not signed in")
    await page.screenshot({ path: "test-results/next-app-server-action-signed-out.png" })
    expect(await sessionCookie(context)).toBeUndefined()
    // The action's catch never ran: nothing was thrown through the user's try/catch.
    expect(app!.output().slice(logged)).not.toContain("sign-out failed")
    await page.goto(`${origin}/protected`)
    expect(new URL(page.url()).pathname).toBe("/auth/signin")
    await context.close()
  }, 60_000)
})
