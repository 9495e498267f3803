// The demo in a real browser: Debian's Chromium driven by playwright-core opens the sign-in page,
// clicks "Sign in with Demo", completes the provider's login and lands on the session page, which
// shows the user as a card. The sign-in page's passkey field says it is for passkeys, and its
// buttons' text meets WCAG AA on their colour. With database sessions (`--db`) the page says why there
// is no token to decode. Screenshots (light and dark, and both home pages) are saved to test-results/.
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

/** The WCAG contrast ratio of each visible button's text on its own background, by its label. */
function buttonContrasts(): Record<string, number> {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((value) => {
      const channel = Number(value) / 255
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const ratios: Record<string, number> = {}
  for (const button of document.querySelectorAll("button")) {
    const style = getComputedStyle(button)
    if (button.offsetParent === null || style.backgroundColor === "rgba(0, 0, 0, 0)") continue
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a)
    ratios[button.textContent!.trim()] = (light! + 0.05) / (dark! + 0.05)
  }
  return ratios
}

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
    // The passkey form (shown once the script finds WebAuthn) says what its email field is for.
    await page.getByText("Sign in or create an account with a passkey").waitFor()
    await expect(page.getByLabel("Email").getAttribute("aria-describedby")).resolves.toBe("passkey-email-hint")
    await expect(page.locator("#passkey-email-hint").textContent()).resolves.toMatch(/^No email is sent/)
    const contrasts = await page.evaluate(buttonContrasts)
    expect(Object.keys(contrasts)).toEqual(["Sign in with Demo", "Sign in with a passkey"])
    for (const [label, ratio] of Object.entries(contrasts)) expect(ratio, label).toBeGreaterThanOrEqual(4.5)
    // White text on the blue passkey button, not black.
    await expect(page.getByRole("button", { name: "Sign in with a passkey" }).evaluate((node) => getComputedStyle(node).color)).resolves.toBe("rgb(255, 255, 255)")
    await button.click()
    await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.getByRole("heading", { name: "Signed in" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    // The user as a card, the JSON behind a disclosure.
    await expect(page.locator("#user-name").textContent()).resolves.toBe("Ada Lovelace")
    await expect(page.locator("#user-email").textContent()).resolves.toBe("ada@example.com")
    await expect(page.locator("#session").isVisible()).resolves.toBe(false)
    await page.screenshot({ path: "test-results/demo-home-jwt.png", fullPage: true })
    const session = JSON.parse((await page.locator("#session").textContent()) ?? "null")
    expect(session.user).toEqual({ id: expect.any(String), name: "Ada Lovelace", email: "ada@example.com", image: null })
    const claims = JSON.parse((await page.locator("#claims").textContent()) ?? "null")
    // The demo keeps users in an adapter (for its passkeys), so `sub` is the adapter's user id.
    expect(claims).toMatchObject({ sub: expect.stringMatching(/^[0-9a-f-]{36}$/), email: "ada@example.com" })
    await page.close()
  }, 60_000)

  it("with database sessions, the home page says the cookie holds no token to decode", async (context) => {
    if (!available) {
      console.warn(`skipping the Chromium database sign-in: ${unavailable}`)
      context.skip(unavailable)
    }
    const { startDemo } = await import("../../examples/demo-app.mjs")
    const { demoDatabase } = await import("../../examples/demo-db.mjs")
    const withDatabase = await startDemo({ port: 0, database: await demoDatabase() })
    const page = await browser!.newPage()
    try {
      await page.goto(`${withDatabase.url}/auth/signin?callbackUrl=%2F`)
      await page.getByRole("button", { name: "Sign in with Demo" }).click()
      await page.getByRole("button", { name: "Continue" }).click()
      await page.getByRole("heading", { name: "Signed in" }).waitFor()
      await expect(page.locator("#user-name").textContent()).resolves.toBe("Ada Lovelace")
      await expect(page.locator("#claims-note").textContent()).resolves.toMatch(/^Database session: the cookie holds only an opaque key/)
      await expect(page.locator("#claims").count()).resolves.toBe(0)
      // What the page shows (the JSON stays folded away) has no "null" in it.
      expect(await page.locator("body").innerText()).not.toMatch(/null/)
      await page.screenshot({ path: "test-results/demo-home-db.png", fullPage: true })
    } finally {
      await page.close()
      await withDatabase.close()
    }
  }, 60_000)
})
