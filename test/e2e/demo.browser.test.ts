// The demo in a real browser: Debian's Chromium driven by playwright-core opens the sign-in page,
// clicks "Sign in with Demo", completes the provider's login and lands on the session page.
// Screenshots of the sign-in page (light and dark) are saved to test-results/.
import { existsSync, mkdirSync } from "node:fs"
import { type Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CHROMIUM, launchChromium, NO_CHROMIUM } from "./chromium.js"

const available = existsSync(CHROMIUM) && existsSync("dist/index.js")
/** Why the browser test cannot run here, or undefined when it can. */
const unavailable = [
  NO_CHROMIUM,
  existsSync("dist/index.js") ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)",
].filter((reason): reason is string => reason !== undefined).join("; ") || undefined
// CI installs Chromium and builds first; there the test must run, never skip.
const mustRun = process.env.CI === "true"

let browser: Browser | undefined
let demo: { url: string; close(): Promise<void> } | undefined

beforeAll(async () => {
  if (!available) {
    console.warn(`the demo in Chromium is skipped: ${unavailable}`)
    return
  }
  const { startDemo } = await import("../../examples/demo-app.mjs")
  demo = await startDemo({ port: 0 })
  browser = await launchChromium()
  mkdirSync("test-results", { recursive: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await demo?.close()
})

describe("the demo in Chromium", () => {
  it("has Chromium and a build to test", () => {
    if (mustRun) expect(available, `${CHROMIUM} and dist/ are required in CI`).toBe(true)
  })

  it("signs in with Demo through the provider's login and shows the session", async (context) => {
    if (!available) {
      console.warn(`skipping the Chromium sign-in: ${unavailable}`)
      context.skip(unavailable)
    }
    const page = await browser!.newPage()
    await page.goto(`${demo!.url}/auth/signin?callbackUrl=%2F`)
    const button = page.getByRole("button", { name: "Sign in with Demo" })
    await expect(button.isVisible()).resolves.toBe(true)
    await page.screenshot({ path: "test-results/signin-light.png" })
    await page.emulateMedia({ colorScheme: "dark" })
    await page.screenshot({ path: "test-results/signin-dark.png" })
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(dark).toBe("rgb(9, 9, 11)")
    await page.emulateMedia({ colorScheme: "light" })
    await button.click()
    await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.getByRole("heading", { name: "Signed in" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    const session = JSON.parse((await page.locator("#session").textContent()) ?? "null")
    expect(session.user).toEqual({ id: expect.any(String), name: "Ada Lovelace", email: "ada@example.com", image: null })
    const claims = JSON.parse((await page.locator("#claims").textContent()) ?? "null")
    // The demo keeps users in an adapter (for its passkeys), so `sub` is the adapter's user id.
    expect(claims).toMatchObject({ sub: expect.stringMatching(/^[0-9a-f-]{36}$/), email: "ada@example.com" })
    await page.close()
  }, 60_000)
})
