// The password pages in Debian's Chromium (playwright-core), against the real handler on a real
// HTTP server: each page drawn light and dark (PNGs in test-results/password-pages/), with the
// accessibility basics checked in the rendered page (every visible input has a label with text,
// every aria-describedby points at an element, the error and hint text meet WCAG AA contrast on
// what is behind them), then the whole journey through the pages themselves: sign up, open the
// mailed link, signed in; sign out; a wrong password refused with focus on the form; sign in;
// forgot, open the mailed link, reset; signed in with the new password. No script on any page.
import { mkdirSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth } from "../../src/handler/index.js"
import { toWebHandler } from "../../src/integrations/node.js"
import { passwordsWith } from "../../src/passwords/index.js"
import GitHub from "../../src/providers/github.js"
import Password, { type PasswordEmail } from "../../src/providers/password.js"
import { CHEAP } from "../passwords/support.js"
import { launchChromium, NO_CHROMIUM } from "./chromium.js"

const SHOTS = "test-results/password-pages"
const GOOD = "correct horse battery staple"
const NEW = "purple elephants dance at noon"

let browser: Browser | undefined
let server: Server | undefined
let origin = ""
const mailbox: PasswordEmail[] = []

beforeAll(async () => {
  if (NO_CHROMIUM && process.env.CI === "true") throw new Error(`CI=true and ${NO_CHROMIUM}: the password pages must be drawn`)
  if (NO_CHROMIUM) return console.warn(`the password pages in Chromium are skipped: ${NO_CHROMIUM}`)
  server = createServer()
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const auth = createAuth({
    providers: [GitHub({ clientId: "id", clientSecret: "secret" }), Password({ sendEmail: (mail) => void mailbox.push(mail) })],
    adapter: memoryAdapter(),
    passwords: passwordsWith(CHEAP),
    secret: "latchkey-password-pages-e2e-secret-0123456789",
    env: { AUTH_URL: `${origin}/auth` },
    rateLimits: false,
  })
  const handler = toWebHandler(auth.handler)
  // The app's own page: who the server says is signed in.
  server.on("request", async (req, res) => {
    if (req.url?.startsWith("/auth")) return handler(req, res)
    const session = await auth.auth(new Request(`${origin}${req.url}`, { headers: { cookie: req.headers.cookie ?? "" } }))
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><title>App</title><p id="who">${session?.user?.email ?? "signed out"}</p>`)
  })
  browser = await launchChromium()
  mkdirSync(SHOTS, { recursive: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((done) => (server ? server.close(done) : done(undefined)))
})

/** The newest mailed link of `kind` to `to`. */
function linkTo(to: string, kind: PasswordEmail["kind"]): string {
  const mail = [...mailbox].reverse().find((candidate) => candidate.to === to && candidate.kind === kind)
  if (!mail?.url) throw new Error(`no ${kind} mail to ${to}`)
  return mail.url
}

/** What the rendered page breaks of the basics: unlabelled inputs, dangling references, low contrast. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const rgb = (value: string) => value.match(/[\d.]+/g)!.slice(0, 3).map(Number)
    const luminance = (color: number[]) => {
      const [r, g, b] = color.map((channel) => {
        const value = channel / 255
        return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    /** The first opaque background behind an element. */
    const backgroundOf = (element: Element | null): string => {
      for (let node = element; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor
        if (!/rgba\(.*, 0\)$/.test(color) && color !== "transparent") return color
      }
      return "rgb(255, 255, 255)"
    }
    const contrast = (element: Element) => {
      const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(rgb(backgroundOf(element)))]
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
    }
    for (const input of document.querySelectorAll<HTMLInputElement>("input:not([type=hidden])")) {
      if (input.closest("[hidden]")) continue
      const label = [...(input.labels ?? [])].map((element) => element.textContent?.trim()).join("")
      if (!label) problems.push(`input ${input.name} has no label`)
      for (const id of (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)) {
        if (!document.getElementById(id)) problems.push(`input ${input.name} is described by a missing #${id}`)
      }
    }
    for (const element of document.querySelectorAll(".alert, .hint, p, label, a, h1, button")) {
      if (element.closest("[hidden]") || !element.textContent?.trim()) continue
      const ratio = contrast(element)
      if (ratio < 4.5) problems.push(`"${element.textContent.trim().slice(0, 30)}" has contrast ${ratio.toFixed(2)}`)
    }
    if (document.querySelector("script")) problems.push("the page has a script")
    return problems
  })
}

const PAGES: [name: string, path: string][] = [
  ["signin", "/auth/signin"],
  ["signin-refused", "/auth/signin?error=CredentialsSignin"],
  ["sign-up", "/auth/password/sign-up"],
  ["sign-up-policy", "/auth/password/sign-up?error=PasswordPolicy&reason=too_short"],
  ["forgot", "/auth/password/forgot"],
  ["reset", "/auth/password/reset?token=example&email=ada%40example.com"],
  ["reset-expired", "/auth/password/reset?token=example&email=ada%40example.com&error=InvalidToken"],
  ["check-email-verify", "/auth/verify-request?provider=password&kind=verify-email"],
  // A verification link opened in a browser other than the one that signed up: the password confirms it.
  ["confirm-email-verify", "/auth/password/verify-email?token=example&email=ada%40example.com"],
  ["confirm-email-verify-refused", "/auth/password/verify-email?token=example&email=ada%40example.com&error=CredentialsSignin"],
  ["check-email-reset", "/auth/verify-request?provider=password&kind=reset"],
]

describe.skipIf(NO_CHROMIUM !== undefined)("the password pages in Chromium", () => {
  it.each(["light", "dark"] as const)("every page in %s: labelled inputs, readable text, no script; screenshots saved", async (scheme) => {
    const context = await browser!.newContext({ colorScheme: scheme, viewport: { width: 480, height: 820 } })
    const page = await context.newPage()
    const blocked: string[] = []
    page.on("console", (message) => message.type() === "error" && blocked.push(message.text()))
    for (const [name, path] of PAGES) {
      const response = await page.goto(`${origin}${path}`)
      expect(response?.status(), name).toBe(200)
      expect(await accessibilityProblems(page), `${name} (${scheme})`).toEqual([])
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true })
    }
    // The pages' content security policy refused nothing (inline styles only, no script).
    expect(blocked).toEqual([])
    // The check itself finds what it looks for.
    await page.setContent('<p style="color:#999;background:#fff">faint</p><label>Name</label><input name="x" aria-describedby="gone">')
    expect(await accessibilityProblems(page)).toEqual(["input x has no label", "input x is described by a missing #gone", '"faint" has contrast 2.85'])
    await context.close()
  }, 60_000)

  it("the journey: sign up, verify, sign out, a wrong password, sign in, forgot, reset, sign in with the new password", async () => {
    const context = await browser!.newContext()
    const page = await context.newPage()
    const who = async () => (await page.goto(`${origin}/home`), page.textContent("#who"))

    // Sign up from the sign-in page's link; a too-short password is stopped by the browser first.
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
    await page.getByRole("link", { name: "Create one" }).click()
    await page.getByLabel("Name (optional)").fill("Ada")
    await page.getByLabel("Email").fill("ada@example.com")
    await page.getByLabel("Password").fill("short")
    await page.getByRole("button", { name: "Create account" }).click()
    expect(await page.$eval("#password-new", (input: HTMLInputElement) => input.validity.tooShort)).toBe(true)
    expect(page.url()).toContain("/auth/password/sign-up")
    await page.getByLabel("Password").fill(GOOD)
    await page.getByRole("button", { name: "Create account" }).click()
    await expect.poll(() => page.textContent("h1")).toBe("Check your email")
    expect(await page.textContent("main")).toContain("Open it to confirm your address")

    // The mailed link signs the new user in and lands on the callback URL.
    await page.goto(linkTo("ada@example.com", "verify-email"))
    expect(new URL(page.url()).pathname).toBe("/home")
    expect(await who()).toBe("ada@example.com")

    // Sign out through the handler's page.
    await page.goto(`${origin}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    expect(await who()).toBe("signed out")

    // A wrong password: back on the sign-in page with the error, the fields invalid, the email focused.
    await page.goto(`${origin}/auth/signin`)
    await page.getByLabel("Email").first().fill("ada@example.com")
    await page.getByLabel("Password").fill("not the right password")
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect.poll(() => page.textContent('[role="alert"]')).toContain("Sign-in failed")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password-signin-email")
    expect(await page.getAttribute("#password-signin-password", "aria-invalid")).toBe("true")
    await page.screenshot({ path: `${SHOTS}/journey-wrong-password.png`, fullPage: true })

    // The right password signs in.
    await page.getByLabel("Email").first().fill("ada@example.com")
    await page.getByLabel("Password").fill(GOOD)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.waitForURL((url) => !url.pathname.startsWith("/auth/"))
    expect(await who()).toBe("ada@example.com")
    await page.goto(`${origin}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()

    // Forgot: the link on the sign-in page, the address, the same "check your email" as for anyone.
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
    await page.getByRole("link", { name: "Forgot your password?" }).click()
    await page.getByLabel("Email").fill("ada@example.com")
    await page.getByRole("button", { name: "Send reset link" }).click()
    await expect.poll(() => page.textContent("h1")).toBe("Check your email")
    expect(await page.textContent("main")).toContain("a link to choose a new password")

    // The reset link opens the reset page: the address shown read-only, the new password focused.
    await page.goto(linkTo("ada@example.com", "reset"))
    expect(await page.textContent("h1")).toBe("Reset your password")
    expect(await page.inputValue("#password-email")).toBe("ada@example.com")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password-new")
    await page.screenshot({ path: `${SHOTS}/journey-reset.png`, fullPage: true })
    await page.getByLabel("New password").fill(NEW)
    await page.getByRole("button", { name: "Set new password" }).click()
    await page.waitForURL((url) => !url.pathname.startsWith("/auth/password"))
    expect(await who()).toBe("ada@example.com")

    // The old password no longer signs in; the new one does.
    await page.goto(`${origin}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    for (const [password, expected] of [
      [GOOD, "signed out"],
      [NEW, "ada@example.com"],
    ] as const) {
      await page.goto(`${origin}/auth/signin`)
      await page.getByLabel("Email").first().fill("ada@example.com")
      await page.getByLabel("Password").fill(password)
      await page.getByRole("button", { name: "Sign in", exact: true }).click()
      await page.waitForLoadState()
      expect(await who()).toBe(expected)
    }
    await context.close()
  }, 90_000)
})
