// Passkeys in a real browser: Debian's Chromium (playwright-core) with a CDP virtual authenticator
// (ctap2, internal transport, resident keys, user verification) against the demo app, whose sign-in
// page offers a passkey next to the Demo provider. A new user signs up with a passkey, signs out,
// signs in with the "Sign in with a passkey" button, signs out, and signs in through passkey
// autofill (conditional UI) without clicking anything; a user signed in with Demo adds a passkey
// on the home page and signs in with it (database sessions in PGlite, through the real Drizzle
// adapter). Every request the passkey pages make stays on the app's origin. Screenshots go to
// test-results/.
import { existsSync, mkdirSync } from "node:fs"
import { type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CHROMIUM, launchChromium, NO_CHROMIUM } from "./chromium.js"

const unavailable =
  [
    NO_CHROMIUM,
    existsSync("dist/webauthn.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)",
  ]
    .filter((reason): reason is string => reason !== undefined)
    .join("; ") || undefined
const mustRun = process.env.CI === "true"

type Demo = { url: string; close(): Promise<void> }
let browser: Browser | undefined
const demos: Demo[] = []

async function startDemo(database = false): Promise<Demo> {
  const { startDemo } = await import("../../examples/demo-app.mjs")
  const { demoDatabase } = await import("../../examples/demo-db.mjs")
  const demo = await startDemo({ port: 0, ...(database ? { database: await demoDatabase() } : {}) })
  demos.push(demo)
  return demo
}

beforeAll(async () => {
  if (unavailable) return console.warn(`passkeys in Chromium are skipped: ${unavailable}`)
  browser = await launchChromium()
  mkdirSync("test-results", { recursive: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  for (const demo of demos) await demo.close()
})

/**
 * A page with its own virtual authenticator. Each `navigator.credentials.get` the page makes is
 * recorded with its mediation. While sessionStorage's "ignore-autofill" is set, a conditional
 * request stays pending until it is aborted, as when the user ignores the autofill suggestion.
 */
async function passkeyPage(): Promise<{ page: Page; gets: () => Promise<string[]>; requests: string[] }> {
  const context = await browser!.newContext()
  const page = await context.newPage()
  const requests: string[] = []
  page.on("request", (request) => requests.push(request.url()))
  await page.addInitScript(() => {
    const original = navigator.credentials.get.bind(navigator.credentials)
    const seen: string[] = JSON.parse(sessionStorage.getItem("gets") ?? "[]")
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      const mediation = options?.mediation ?? "optional"
      if (mediation === "conditional" && sessionStorage.getItem("ignore-autofill")) {
        return new Promise((_, reject) => options?.signal?.addEventListener("abort", () => reject(new DOMException("ignored", "AbortError"))))
      }
      return original(options).then((credential) => {
        seen.push(mediation)
        sessionStorage.setItem("gets", JSON.stringify(seen))
        return credential
      })
    }
  })
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  const gets = async () => JSON.parse((await page.evaluate(() => sessionStorage.getItem("gets"))) ?? "[]") as string[]
  return { page, gets, requests }
}

async function sessionOn(page: Page): Promise<Record<string, any>> {
  await page.getByRole("heading", { name: "Signed in" }).waitFor({ timeout: 15_000 })
  return JSON.parse((await page.locator("#session").textContent()) ?? "null")
}

async function signOut(page: Page, demo: Demo): Promise<void> {
  await page.getByRole("link", { name: "Sign out" }).click()
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.getByText("You are not signed in.").waitFor()
  expect(await (await page.request.get(`${demo.url}/auth/session`)).json()).toBeNull()
}

describe("passkeys in Chromium", () => {
  it("has Chromium and a build to test", () => {
    if (mustRun) expect(unavailable, `${CHROMIUM} and dist/ are required in CI`).toBeUndefined()
  })

  it("signs up with a passkey, then signs in with the button and through autofill (JWT sessions)", async (context) => {
    if (unavailable) context.skip(unavailable)
    const demo = await startDemo()
    const { page, gets, requests } = await passkeyPage()
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    const section = page.locator("form[data-latchkey-passkey]")
    await section.waitFor({ state: "visible" })
    expect(await page.getByRole("button", { name: "Sign in with Demo" }).isVisible()).toBe(true)
    // Autofill found no passkey yet, and says nothing about it.
    expect(await section.locator("[data-passkey-status]").isHidden()).toBe(true)
    await page.screenshot({ path: "test-results/passkey-signin.png" })
    await page.emulateMedia({ colorScheme: "dark" })
    await page.screenshot({ path: "test-results/passkey-signin-dark.png" })
    await page.emulateMedia({ colorScheme: "light" })

    await page.getByLabel("Email").last().fill("grace@example.com")
    await page.getByRole("button", { name: "Create an account with a passkey" }).click()
    expect((await sessionOn(page)).user).toEqual({ id: expect.any(String), name: "grace@example.com", email: "grace@example.com", image: null })
    expect(await page.locator("#passkeys li").allTextContents()).toEqual([expect.stringMatching(/^Passkey .+ \(singleDevice\)$/)])
    await page.screenshot({ path: "test-results/passkey-signed-up.png" })
    await signOut(page, demo)

    // The button, with the autofill suggestion ignored.
    await page.evaluate(() => sessionStorage.setItem("ignore-autofill", "1"))
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    await section.waitFor({ state: "visible" })
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    expect((await sessionOn(page)).user.email).toBe("grace@example.com")
    expect(await gets()).toEqual(["optional"])
    await signOut(page, demo)

    // Autofill: the page's conditional request signs in with no click at all.
    await page.evaluate(() => sessionStorage.removeItem("ignore-autofill"))
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    expect((await sessionOn(page)).user.email).toBe("grace@example.com")
    expect(await gets()).toEqual(["optional", "conditional"])
    await page.screenshot({ path: "test-results/passkey-autofill-signed-in.png" })

    const passkeyRequests = requests.filter((url) => !url.startsWith(demo.url))
    expect(requests.length).toBeGreaterThan(0)
    expect(passkeyRequests).toEqual([])
    await page.context().close()
  }, 90_000)

  it("a user signed in with Demo adds a passkey, then signs in with it (database sessions)", async (context) => {
    if (unavailable) context.skip(unavailable)
    const demo = await startDemo(true)
    const { page, gets } = await passkeyPage()
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    await page.getByRole("button", { name: "Sign in with Demo" }).click()
    await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
    await page.getByRole("button", { name: "Continue" }).click()
    expect((await sessionOn(page)).user.email).toBe("ada@example.com")
    expect(await page.locator("#passkeys li").allTextContents()).toEqual(["None yet."])
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await page.locator("#passkeys li", { hasText: "singleDevice" }).waitFor({ timeout: 15_000 })
    expect(await page.locator("#passkeys li").count()).toBe(1)
    await page.screenshot({ path: "test-results/passkey-added.png" })
    await signOut(page, demo)

    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`)
    expect((await sessionOn(page)).user).toEqual({ id: expect.any(String), name: "Ada Lovelace", email: "ada@example.com", image: null })
    expect(await gets()).toEqual(["conditional"])
    await page.context().close()
  }, 120_000)
})
