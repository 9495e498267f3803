// latchkey/react in Debian's Chromium: a page rendered on the server with react-dom/server and the
// session the server read, hydrated from the same source. No render ever shows anything but that
// session (no loading or signed-out flash) and no request is made for it on mount; update() and a
// sign-out in one tab reach another; a top-level signIn() outside React updates the provider at
// once (the "stale session after sign-in" complaint).
import { mkdirSync } from "node:fs"
import { type Browser, type BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startClientApp, type ClientApp } from "./client-app.js"
import { launchChromium, NO_CHROMIUM } from "./chromium.js"

const unavailable = NO_CHROMIUM
const mustRun = process.env.CI === "true"

let browser: Browser | undefined
let app: ClientApp | undefined

beforeAll(async () => {
  if (unavailable) {
    console.warn(`latchkey/react in Chromium is skipped: ${unavailable}`)
    return
  }
  app = await startClientApp()
  browser = await launchChromium()
  mkdirSync("test-results", { recursive: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

async function profile(context: { skip: (note?: string) => never }): Promise<BrowserContext> {
  if (unavailable) context.skip(unavailable)
  return browser!.newContext()
}

/** Signs the profile in as Ada with a plain form POST (no client involved, no signal sent). */
async function signInBehindTheScenes(profileContext: BrowserContext): Promise<void> {
  const { csrfToken } = (await (await profileContext.request.get(`${app!.url}/auth/csrf`)).json()) as { csrfToken: string }
  const response = await profileContext.request.post(`${app!.url}/auth/callback/credentials`, { form: { csrfToken, username: "ada", password: "right" }, maxRedirects: 0 })
  expect(response.status()).toBe(302)
}

/** Opens the React page; answers the session reads the page made (GET /auth/session). */
async function openReactPage(profileContext: BrowserContext) {
  const page = await profileContext.newPage()
  // A hydration mismatch, or any error, is reported on the console: collected for the tests to check.
  const errors: string[] = []
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())))
  page.on("pageerror", (error) => void errors.push(error.message))
  const sessionReads: string[] = []
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/auth/session" && request.method() === "GET") sessionReads.push(request.url())
  })
  await page.goto(`${app!.url}/react`)
  // Hydrated: React attached its handlers (the click below would do nothing otherwise).
  await page.waitForFunction(() => (window.renders?.length ?? 0) > 0)
  return { page, sessionReads, errors }
}

describe("latchkey/react in Chromium", () => {
  it("has Chromium to test with", () => {
    if (mustRun) expect(unavailable, "Chromium is required in CI").toBeUndefined()
  })

  it("signed in: the server's HTML already shows the user, hydration never flashes, and nothing is read on mount", async (context) => {
    const profileContext = await profile(context)
    try {
      await signInBehindTheScenes(profileContext)
      const html = await (await profileContext.request.get(`${app!.url}/react`)).text()
      expect(html).toContain('<p id="status">authenticated</p><p id="name">Ada</p>')
      const { page, sessionReads, errors } = await openReactPage(profileContext)
      expect(await page.locator("#name").textContent()).toBe("Ada")
      expect(await page.evaluate(() => window.renders)).toEqual(["authenticated"])
      expect(sessionReads).toEqual([])
      expect(errors).toEqual([])
      await page.screenshot({ path: "test-results/client-react-signed-in.png" })
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("signed out: the HTML and every render are signed out", async (context) => {
    const profileContext = await profile(context)
    try {
      const html = await (await profileContext.request.get(`${app!.url}/react`)).text()
      expect(html).toContain('<p id="status">unauthenticated</p>')
      const { page, sessionReads, errors } = await openReactPage(profileContext)
      expect(await page.evaluate(() => window.renders)).toEqual(["unauthenticated"])
      expect(sessionReads).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("required: a signed-out visitor sees nothing signed-out and is sent to sign in, then back", async (context) => {
    const profileContext = await profile(context)
    try {
      const page = await profileContext.newPage()
      const start = `${app!.url}/react-required?tab=2`
      await page.goto(start)
      // /auth/signin passes on to the custom page, pages.signIn (/login), with the callbackUrl.
      await page.waitForURL(`${app!.url}/login?**`)
      expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(start)
      await page.getByLabel("Username").fill("ada")
      await page.getByLabel("Password").fill("right")
      await page.getByRole("button", { name: "Log in" }).click()
      await page.waitForURL(`${app!.url}/account`)
      const html = await (await profileContext.request.get(start)).text()
      expect(html).toContain('<p id="status">authenticated</p>')
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("required: nothing but loading renders before the visitor is sent away", async (context) => {
    const profileContext = await profile(context)
    try {
      const html = await (await profileContext.request.get(`${app!.url}/react-required`)).text()
      expect(html).toContain('<p id="status">loading</p><p id="name"></p>')
      const page = await profileContext.newPage()
      // Keep the page here: the sign-in page answers 204, which a browser does not navigate to, so the renders can be read.
      await page.route(`${app!.url}/auth/signin**`, (route) => route.fulfill({ status: 204 }))
      const leaving = page.waitForResponse(`${app!.url}/auth/signin**`)
      await page.goto(`${app!.url}/react-required`, { waitUntil: "commit" })
      expect((await leaving).status()).toBe(204)
      expect(new URL(page.url()).pathname).toBe("/react-required")
      expect(new Set(await page.evaluate(() => window.renders))).toEqual(new Set(["loading"]))
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("a top-level signIn() outside React updates the provider at once: no stale session", async (context) => {
    const profileContext = await profile(context)
    try {
      const { page } = await openReactPage(profileContext)
      const result = await page.evaluate(() => window.topLevel.signIn("credentials", { username: "ada", password: "right", redirect: false }))
      expect(result).toMatchObject({ ok: true })
      await page.locator("#name").filter({ hasText: "Ada" }).waitFor()
      expect(await page.locator("#status").textContent()).toBe("authenticated")
      expect(await page.evaluate(() => window.renders)).toEqual(["unauthenticated", "authenticated"])
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("a new session prop (the server rendered the page again after a server action) becomes the state, and the other tabs follow", async (context) => {
    const profileContext = await profile(context)
    try {
      await signInBehindTheScenes(profileContext)
      const { page: acting } = await openReactPage(profileContext)
      const { page: other } = await openReactPage(profileContext)
      // A server action signed the user out: the cookie is gone, and the server renders null.
      const { csrfToken } = (await (await profileContext.request.get(`${app!.url}/auth/csrf`)).json()) as { csrfToken: string }
      expect((await profileContext.request.post(`${app!.url}/auth/signout`, { form: { csrfToken }, maxRedirects: 0 })).status()).toBe(302)
      await acting.evaluate(() => (window.renders!.push("rerender"), window.rerender(null)))
      await acting.locator("#status").filter({ hasText: /^unauthenticated$/ }).waitFor()
      await other.locator("#status").filter({ hasText: /^unauthenticated$/ }).waitFor()
      // From the render that brought the new prop on, every render showed it: the old session was
      // never rendered again, not even for one frame.
      const renders = await acting.evaluate(() => window.renders!)
      const after = renders.slice(renders.indexOf("rerender") + 1)
      expect(renders.slice(0, renders.indexOf("rerender"))).toEqual(["authenticated"])
      expect(after.length).toBeGreaterThan(0)
      expect(new Set(after)).toEqual(new Set(["unauthenticated"]))
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("update() re-reads from the server and reaches another tab; a sign-out in one tab signs the other out", async (context) => {
    const profileContext = await profile(context)
    try {
      await signInBehindTheScenes(profileContext)
      const { page: first } = await openReactPage(profileContext)
      const { page: second } = await openReactPage(profileContext)
      await first.getByRole("button", { name: "Dark theme" }).click()
      await first.locator("#theme").filter({ hasText: "dark" }).waitFor()
      await second.locator("#theme").filter({ hasText: "dark" }).waitFor()
      // The theme is in the cookie now: the server renders it too.
      expect(await (await profileContext.request.get(`${app!.url}/react`)).text()).toContain('<p id="theme">dark</p>')
      await first.getByRole("button", { name: "Sign out here" }).click()
      await first.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()
      await second.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()
      // Hydration, the updated session, the sign-out: while update() ran, no render showed "loading"
      // (Auth.js's update() flips the status to loading and back).
      expect(await first.evaluate(() => window.renders)).toEqual(["authenticated", "authenticated", "unauthenticated"])
    } finally {
      await profileContext.close()
    }
  }, 60_000)
})
