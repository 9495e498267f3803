// examples/sveltekit-app as a real app: installed from its own lock, built with `vite build`
// (adapter-node), started with `node build`, and driven in Debian's Chromium against the embedded
// demo OpenID Provider. It proves, through the browser: the handle hook answers /auth and gives
// pages locals.auth(); a protected page sends a signed-out visitor to sign in and the callbackUrl
// brings them back; the signIn form action; the client session shown from the first server render;
// a sign-out in one tab reaching another; the signOut form action; and the signUp form action (a
// refusal shown through SvelteKit's fail(), then a sign-up that signs in). Screenshots go to test-results/.
//
// SvelteKit 3 needs Node 22.17 or later. CI runs this folder once, on its Node 22 run (.ci/run and
// vitest.config.ts); on older Node it skips with the reason.
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, launchChromium, run, start, stop, unavailableReason, waitForHttp, type Spawned } from "../integrations/example-apps.js"

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
const nodeSupported = major > 22 || (major === 22 && minor >= 17)
const unavailable = nodeSupported ? unavailableReason() : `SvelteKit 3 needs Node 22.17 or later, this is ${process.version} (CI runs this suite on its Node 22 run)`
// In CI the suite runs only where Node supports it, and there it must not skip.
const mustRun = process.env.CI === "true" && nodeSupported
const SECRET = "sveltekit-app-example-secret-for-tests-0123456789"

let browser: Browser | undefined
let app: Spawned | undefined
let provider: { issuer: string; close(): Promise<void> } | undefined
let origin = ""

beforeAll(async () => {
  if (unavailable) {
    console.warn(`the SvelteKit example app suite is skipped: ${unavailable}`)
    return
  }
  const { prepareExample } = await import("../../scripts/examples.mjs")
  const { startDemoProvider } = await import("../../examples/demo-provider.mjs")
  const dir: string = prepareExample("sveltekit-app")
  const port = await freePort()
  origin = `http://localhost:${port}`
  provider = await startDemoProvider({ redirectUris: [`${origin}/auth/callback/demo`] })
  const env = { AUTH_SECRET: SECRET, AUTH_URL: origin, DEMO_ISSUER: provider.issuer, ORIGIN: origin, HOST: "localhost", PORT: String(port) }
  const seconds = await run(process.execPath, [join(dir, "node_modules", "vite", "bin", "vite.js"), "build"], { cwd: dir, env })
  console.log(`examples/sveltekit-app: vite build took ${seconds.toFixed(1)} s`)
  app = start(process.execPath, ["build"], { cwd: dir, env })
  await waitForHttp(`${origin}/auth/providers`, app)
  browser = await launchChromium()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await stop(app)
  await provider?.close()
})

async function approveAtProvider(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
  await page.getByRole("button", { name: "Continue" }).click()
}

/** Signs in through the home page's form action; answers the page, back on the home page. */
async function signIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  await page.getByRole("button", { name: "Sign in with Demo (form action)" }).click()
  await approveAtProvider(page)
  await page.waitForURL(`${origin}/`)
  await expect(page.locator("#status").textContent()).resolves.toBe("Signed in as Ada Lovelace")
  return page
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(origin)).find((cookie) => cookie.name === "authjs.session-token")
}

describe.skipIf(unavailable !== undefined && !mustRun)("examples/sveltekit-app in Chromium", () => {
  it("has Node 22.17+, Chromium and a build to test", () => {
    expect(unavailable, "Node 22.17+, Chromium and dist/ are required on this CI run").toBeUndefined()
  })

  it("a signed-out visitor of /protected is sent to sign in, and the callbackUrl brings them back", async () => {
    const context = await browser!.newContext()
    const page = await context.newPage()
    await page.goto(`${origin}/protected`)
    expect(new URL(page.url()).pathname).toBe("/auth/signin")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/protected")
    await page.screenshot({ path: "test-results/sveltekit-app-signin.png" })
    await page.getByRole("button", { name: "Sign in with Demo" }).click()
    await approveAtProvider(page)
    await page.waitForURL(`${origin}/protected`)
    await expect(page.locator("#protected-user").textContent()).resolves.toBe("Welcome, Ada Lovelace")
    await context.close()
  }, 60_000)

  it("signs in through the signIn form action, and the session shows from the first server render", async () => {
    const context = await browser!.newContext()
    const first = await context.newPage()
    await first.goto(`${origin}/`)
    await expect(first.locator("#status").textContent()).resolves.toBe("Not signed in")
    await first.close()
    const page = await signIn(context)
    await expect(page.locator("#email").textContent()).resolves.toBe("ada@example.com")
    const html = await (await page.request.get(`${origin}/`)).text()
    expect(html).toMatch(/<p id="status">Signed in as Ada Lovelace<\/p>/)
    expect(await sessionCookie(context)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    await page.screenshot({ path: "test-results/sveltekit-app-signed-in.png" })
    await context.close()
  }, 60_000)

  it("a sign-out in one tab updates the other tab", async () => {
    const context = await browser!.newContext()
    const first = await signIn(context)
    const second = await context.newPage()
    await second.goto(`${origin}/`)
    await expect(second.locator("#status").textContent()).resolves.toBe("Signed in as Ada Lovelace")
    await first.getByRole("button", { name: "Sign out (client)" }).click()
    await second.locator("#status", { hasText: "Not signed in" }).waitFor({ timeout: 10_000 })
    await second.screenshot({ path: "test-results/sveltekit-app-other-tab-signed-out.png" })
    expect(await sessionCookie(context)).toBeUndefined()
    await context.close()
  }, 60_000)

  it("the signUp form action: a refusal shows on the page through fail(), a good password signs the new user in", async () => {
    const context = await browser!.newContext()
    const page = await context.newPage()
    await page.goto(`${origin}/signup`)
    await page.getByLabel("Email").fill("grace@example.com")
    await page.getByLabel("Password").fill("short")
    await page.getByRole("button", { name: "Create account" }).click()
    await expect(page.locator("#error").textContent()).resolves.toBe("PasswordPolicy (too_short)")
    expect(new URL(page.url()).pathname).toBe("/signup")
    expect(await sessionCookie(context)).toBeUndefined()
    await page.getByLabel("Email").fill("grace@example.com")
    await page.getByLabel("Password").fill("correct horse battery staple")
    await page.getByRole("button", { name: "Create account" }).click()
    await page.waitForURL(`${origin}/`)
    await expect(page.locator("#email").textContent()).resolves.toBe("grace@example.com")
    expect(await sessionCookie(context)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    await page.screenshot({ path: "test-results/sveltekit-app-signed-up.png" })
    await context.close()
  }, 60_000)

  it("the signOut form action signs out, and /protected is closed again", async () => {
    const context = await browser!.newContext()
    const page = await signIn(context)
    await page.goto(`${origin}/protected`)
    await expect(page.locator("#protected-user").textContent()).resolves.toBe("Welcome, Ada Lovelace")
    await page.getByRole("button", { name: "Sign out (form action)" }).click()
    await page.waitForURL(`${origin}/?signed-out=server`)
    await expect(page.locator("#status").textContent()).resolves.toBe("Not signed in")
    await page.screenshot({ path: "test-results/sveltekit-app-form-action-signed-out.png" })
    expect(await sessionCookie(context)).toBeUndefined()
    await page.goto(`${origin}/protected`)
    expect(new URL(page.url()).pathname).toBe("/auth/signin")
    await context.close()
  }, 60_000)
})
