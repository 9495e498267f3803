// latchkey/client in Debian's Chromium (playwright-core), against the real handler on a real HTTP
// server (test/e2e/client-app.ts): a custom sign-in form that surfaces the CredentialsSignin code
// and never meets MissingCSRF, email sign-in, OAuth with the embedded demo OpenID provider,
// update(), a sign-out in one tab updating another (BroadcastChannel, and the storage-event
// fallback), and the re-read on window focus.
import { mkdirSync } from "node:fs"
import { type Browser, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startClientApp, type ClientApp } from "./client-app.js"
import { launchChromium, NO_CHROMIUM } from "./chromium.js"

const unavailable = NO_CHROMIUM
const mustRun = process.env.CI === "true"

let browser: Browser | undefined
let app: ClientApp | undefined

beforeAll(async () => {
  if (unavailable) {
    console.warn(`the client in Chromium is skipped: ${unavailable}`)
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

/** A fresh browser profile (its own cookies and storage); closed by the caller. */
async function profile(context: { skip: (note?: string) => never }): Promise<BrowserContext> {
  if (unavailable) context.skip(unavailable)
  return browser!.newContext()
}

async function serverSession(page: Page): Promise<Record<string, any> | null> {
  await page.goto(`${app!.url}/account`)
  return JSON.parse((await page.locator("#session").textContent()) ?? "null")
}

/** Signs in as Ada through the client, from whatever page of the app is open. */
async function signInAsAda(page: Page): Promise<void> {
  const result = await page.evaluate(() => window.latchkey.signIn("credentials", { username: "ada", password: "right", redirect: false }))
  expect(result).toMatchObject({ ok: true })
}

describe("latchkey/client in Chromium", () => {
  it("has Chromium to test with", () => {
    if (mustRun) expect(unavailable, "Chromium is required in CI").toBeUndefined()
  })

  it("credentials from a custom form: the CredentialsSignin code shows, then a sign-in lands signed in, with no MissingCSRF", async (context) => {
    const profileContext = await profile(context)
    try {
      const page = await profileContext.newPage()
      await page.goto(`${app!.url}/login`)
      // The custom page never asked for a CSRF token: the client gets one itself.
      expect((await profileContext.cookies()).map((cookie) => cookie.name)).not.toContain("authjs.csrf-token")
      await page.getByLabel("Username").fill("locked")
      await page.getByLabel("Password").fill("whatever")
      await page.getByRole("button", { name: "Log in" }).click()
      await page.locator("#result").filter({ hasText: "CredentialsSignin" }).waitFor()
      expect(JSON.parse((await page.locator("#result").textContent())!)).toEqual({ ok: false, error: "CredentialsSignin", code: "locked", url: null, status: 200 })
      expect(new URL(page.url()).pathname).toBe("/login") // a refusal navigates nowhere
      // The CSRF cookie is lost (expiry, "clear site data"): the kept token is refused once and read again.
      await profileContext.clearCookies({ name: "authjs.csrf-token" })
      await page.getByLabel("Username").fill("ada")
      await page.getByLabel("Password").fill("right")
      await page.getByRole("button", { name: "Log in" }).click()
      await page.waitForURL(`${app!.url}/account`)
      expect(JSON.parse((await page.locator("#session").textContent())!)).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
      await page.screenshot({ path: "test-results/client-credentials.png" })
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("email: the link is sent from a custom page, and opening it signs in", async (context) => {
    const profileContext = await profile(context)
    try {
      const page = await profileContext.newPage()
      await page.goto(`${app!.url}/login`)
      const sent = app!.outbox.length
      const result = await page.evaluate(() => window.latchkey.signIn("email", { email: "grace@example.com", redirectTo: "/account", redirect: false }))
      expect(result).toMatchObject({ ok: true, url: `${app!.url}/auth/verify-request?provider=email&type=email` })
      expect(app!.outbox).toHaveLength(sent + 1)
      const link = app!.outbox[sent]!
      expect(new URL(link).searchParams.get("email")).toBe("grace@example.com")
      await page.goto(link)
      await page.waitForURL(`${app!.url}/account`)
      expect(JSON.parse((await page.locator("#session").textContent())!)).toMatchObject({ user: { email: "grace@example.com" } })
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("OAuth: signIn('demo') goes through the demo OpenID provider's login and back, signed in", async (context) => {
    const profileContext = await profile(context)
    try {
      const page = await profileContext.newPage()
      await page.goto(`${app!.url}/login`)
      // A navigation, not a result: the page leaves for the provider.
      await Promise.all([page.waitForURL(`${app!.issuer}/**`), page.evaluate(() => void window.latchkey.signIn("demo", { redirectTo: "/account" }))])
      await page.getByRole("heading", { name: "Demo OpenID Provider" }).waitFor()
      await page.getByRole("button", { name: "Continue" }).click()
      await page.waitForURL(`${app!.url}/account`)
      expect(JSON.parse((await page.locator("#session").textContent())!)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  it("OAuth with redirect: false answers the provider's URL and stays", async (context) => {
    const profileContext = await profile(context)
    try {
      const page = await profileContext.newPage()
      await page.goto(`${app!.url}/login`)
      const result = await page.evaluate(() => window.latchkey.signIn("demo", { redirect: false }))
      expect(result.ok).toBe(true)
      expect(result.url!.startsWith(`${app!.issuer}/auth?`)).toBe(true)
      expect(new URL(page.url()).pathname).toBe("/login")
    } finally {
      await profileContext.close()
    }
  }, 60_000)

  for (const transport of ["BroadcastChannel", "storage events"] as const) {
    it(`sign-in, update() and sign-out in one tab update another tab (${transport})`, async (context) => {
      const profileContext = await profile(context)
      try {
        // Without BroadcastChannel (as in a browser that has none), the storage-event fallback carries the signal.
        if (transport === "storage events") await profileContext.addInitScript(() => void Reflect.deleteProperty(window, "BroadcastChannel"))
        const acting = await profileContext.newPage()
        const watching = await profileContext.newPage()
        await watching.goto(`${app!.url}/tab-no-focus`)
        await expect.poll(() => watching.locator("#status").textContent()).toBe("unauthenticated")
        expect(await watching.evaluate(() => typeof BroadcastChannel)).toBe(transport === "BroadcastChannel" ? "function" : "undefined")
        await acting.goto(`${app!.url}/tab-no-focus`)
        await acting.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()

        await acting.evaluate(() => window.client.signIn("credentials", { username: "ada", password: "right", redirect: false }))
        await watching.locator("#name").filter({ hasText: "Ada" }).waitFor()
        expect(await watching.locator("#status").textContent()).toBe("authenticated")

        const updated = await acting.evaluate(() => window.client.update({ theme: "dark" }))
        expect(updated).toMatchObject({ theme: "dark" })
        await watching.locator("#theme").filter({ hasText: "dark" }).waitFor()

        await acting.evaluate(() => window.client.signOut({ redirect: false }))
        await watching.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()
        expect(await watching.locator("#name").textContent()).toBe("")
        expect(await serverSession(watching)).toBeNull()
      } finally {
        await profileContext.close()
      }
    }, 60_000)
  }

  it("a tab re-reads the session when the window gains focus, and not when that is turned off", async (context) => {
    const profileContext = await profile(context)
    try {
      const focused = await profileContext.newPage()
      const unfocused = await profileContext.newPage()
      await focused.goto(`${app!.url}/tab`)
      await unfocused.goto(`${app!.url}/tab-no-focus`)
      await focused.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()
      await unfocused.locator("#status").filter({ hasText: "unauthenticated" }).waitFor()
      // Signed in behind the tabs' backs: a request that shares the cookies but sends no signal.
      const request = profileContext.request
      const { csrfToken } = (await (await request.get(`${app!.url}/auth/csrf`)).json()) as { csrfToken: string }
      const signedIn = await request.post(`${app!.url}/auth/callback/credentials`, { form: { csrfToken, username: "ada", password: "right" }, maxRedirects: 0 })
      expect(signedIn.status()).toBe(302)
      // The read starts inside the focus event's dispatch, so the count is exact as soon as it returns.
      const reads = (page: Page) =>
        page.evaluate(() => {
          const before = window.sessionReads
          window.dispatchEvent(new Event("focus"))
          return window.sessionReads - before
        })
      expect(await reads(focused)).toBe(1)
      expect(await reads(unfocused)).toBe(0)
      await focused.locator("#status").filter({ hasText: "authenticated" }).waitFor()
      expect(await focused.locator("#name").textContent()).toBe("Ada")
      // The tab that read on focus saw a user the tabs did not know, so it told the others (as a page
      // landing after a server-action sign-in does): the tab without focus reads comes along through
      // that message, not through its own focus event (counted 0 above).
      await unfocused.locator("#status").filter({ hasText: /^authenticated$/ }).waitFor()
      // Signed out behind its back, the tab reads again when it becomes visible (switching back to
      // it). Headless Chromium never hides a page, so the event is dispatched on a visible document.
      const signedOut = await request.post(`${app!.url}/auth/signout`, { form: { csrfToken }, maxRedirects: 0 })
      expect(signedOut.status()).toBe(302)
      const visibleReads = await focused.evaluate(() => {
        const before = window.sessionReads
        document.dispatchEvent(new Event("visibilitychange"))
        return [document.visibilityState, window.sessionReads - before]
      })
      expect(visibleReads).toEqual(["visible", 1])
      await focused.locator("#status").filter({ hasText: /^unauthenticated$/ }).waitFor()
    } finally {
      await profileContext.close()
    }
  }, 60_000)
})

declare global {
  interface Window {
    client: import("../../src/client/types.js").AuthClient<import("../../src/types.js").Session & { theme?: string }>
    sessionReads: number
  }
}
