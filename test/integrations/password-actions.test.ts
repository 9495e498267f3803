// The password calls as framework actions: latchkey/next's server actions (with Next's own cookie
// classes, as Next builds cookies() for an action) and latchkey/sveltekit's form actions (the form
// read from the request, the cookies written through event.cookies), each against a real handler
// with Password(), the passwords plug-in, a captured mailbox and rate limits. What a browser sends
// after an action is read back through auth(), and every refusal keeps its route's code.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { InvalidOptionError } from "../../src/errors.js"
import { createAuth } from "../../src/handler/index.js"
import { formError, runPasswordForm, type KitActionEvent } from "../../src/integrations/sveltekit/actions.js"
import { passwordsWith } from "../../src/passwords/index.js"
import Password, { type PasswordEmail } from "../../src/providers/password.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { CHEAP } from "../passwords/support.js"
import { nextActionBrowser } from "./next-action-browser.js"

const APP = "https://app.example.com"
const SECRET = "latchkey-password-actions-secret-0123456789"
const GOOD = "correct horse battery staple"
const NEW = "purple elephants dance at noon"

function app() {
  const mailbox: PasswordEmail[] = []
  const auth = createAuth({
    providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), requireEmailVerification: false })],
    adapter: memoryAdapter(),
    passwords: passwordsWith(CHEAP),
    secret: SECRET,
    env: { AUTH_URL: `${APP}/auth` },
    trustedProxy: "cloudflare",
    rateLimits: rateLimits({ routes: { "password-sign-up": { client: { limit: 3, windowSeconds: 60 }, identifier: false } } }),
  })
  const linkOf = (to: string, kind: PasswordEmail["kind"]) => new URL([...mailbox].reverse().find((mail) => mail.to === to && mail.kind === kind)!.url!)
  return { auth, mailbox, linkOf }
}

const nextBrowser = (auth: ReturnType<typeof app>["auth"], ip = "198.51.100.7") => nextActionBrowser(auth, { ip })

describe("latchkey/next password actions", () => {
  it("signUp signs the new user in, with a FormData as a page's form posts it", async () => {
    const { auth } = app()
    const browser = nextBrowser(auth)
    const form = new FormData()
    for (const [name, value] of Object.entries({ email: "Ada@Example.com", password: GOOD, name: "Ada", redirectTo: "/welcome", $ACTION_ID_abc: "" })) form.set(name, value)
    expect(await browser.run((actions) => actions.signUp(form))).toEqual({ ok: true, url: `${APP}/welcome`, status: 200 })
    expect((await browser.session())?.user).toMatchObject({ email: "ada@example.com", name: "Ada" })
  })

  it("a refusal keeps its code and reason, and signs nobody in", async () => {
    const { auth } = app()
    const browser = nextBrowser(auth)
    const result = await browser.run((actions) => actions.signUp({ email: "ada@example.com", password: "short" }, { redirectTo: "/welcome" }))
    expect(result).toEqual({ ok: false, error: "PasswordPolicy", reason: "too_short", status: 400 })
    expect(await browser.session()).toBeNull()
  })

  it("forgot, then reset with the mailed link's token: signed in with the new password", async () => {
    const { auth, linkOf } = app()
    await nextBrowser(auth).run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD }))
    const browser = nextBrowser(auth)
    expect(await browser.run((actions) => actions.requestPasswordReset("ada@example.com", { redirectTo: "/account" }))).toMatchObject({ ok: true })
    // An address with no account answers the same.
    expect(await browser.run((actions) => actions.requestPasswordReset("nobody@example.com"))).toEqual(await browser.run((actions) => actions.requestPasswordReset("ada@example.com")))
    const link = linkOf("ada@example.com", "reset")
    const reset = await browser.run((actions) => actions.resetPassword({ token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: NEW }, { redirectTo: "/account" }))
    expect(reset).toEqual({ ok: true, url: `${APP}/account`, status: 200 })
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    // The link is spent.
    expect(await browser.run((actions) => actions.resetPassword({ token: link.searchParams.get("token")!, email: "ada@example.com", password: GOOD }))).toMatchObject({ ok: false, error: "InvalidToken" })
  })

  it("changePassword needs the session and the current password; changeEmail mails the new address", async () => {
    const { auth, mailbox } = app()
    const stranger = nextBrowser(auth)
    expect(await stranger.run((actions) => actions.changePassword({ currentPassword: GOOD, newPassword: NEW }))).toMatchObject({ ok: false, error: "SessionRequired", status: 401 })
    const browser = nextBrowser(auth)
    await browser.run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD }))
    expect(await browser.run((actions) => actions.changePassword({ currentPassword: "wrong guess here", newPassword: NEW }))).toMatchObject({ ok: false, error: "InvalidCurrentPassword" })
    expect(await browser.run((actions) => actions.changePassword({ currentPassword: GOOD, newPassword: NEW, revokeOtherSessions: true }))).toMatchObject({ ok: true })
    // Every other session ended; this browser was signed in again.
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    expect(await browser.run((actions) => actions.changeEmail({ newEmail: "ada@lovelace.example", password: NEW }))).toMatchObject({ ok: true })
    expect(mailbox.map(({ to, kind }) => `${kind} ${to}`)).toEqual(expect.arrayContaining(["change-email ada@lovelace.example", "email-changed-notice ada@example.com"]))
  })

  it("the actions go through the rate limits: a sign-up spree from one client is RateLimited with retryAfter", async () => {
    const { auth } = app()
    const browser = nextBrowser(auth, "203.0.113.9")
    const answers = []
    for (let index = 0; index < 4; index++) answers.push(await browser.run((actions) => actions.signUp({ email: `user${index}@example.com`, password: GOOD })))
    expect(answers.slice(0, 3).every(({ ok }) => ok)).toBe(true)
    expect(answers[3]).toMatchObject({ ok: false, error: "RateLimited", status: 429 })
    expect(answers[3]!.retryAfter).toBeGreaterThan(0)
  })

  it("callbackUrl is refused by name, as in signIn", async () => {
    const { auth } = app()
    const browser = nextBrowser(auth)
    await expect(browser.run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD }, { callbackUrl: "/x" } as never))).rejects.toThrow(InvalidOptionError)
    await expect(browser.run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD, callbackUrl: "/x" } as never))).rejects.toThrow(/redirectTo/)
  })
})

describe("latchkey/sveltekit password form actions", () => {
  function kitBrowser() {
    const values = new Map<string, string>()
    const cookies = { getAll: () => [...values].map(([name, value]) => ({ name, value })), set: (name: string, value: string) => void (value === "" ? values.delete(name) : values.set(name, value)) }
    const event = (fields: Record<string, string>): KitActionEvent => {
      const body = new URLSearchParams(fields)
      return { request: new Request(`${APP}/signup`, { method: "POST", headers: { origin: APP, referer: `${APP}/signup`, "content-type": "application/x-www-form-urlencoded" }, body }), url: new URL(`${APP}/signup`), cookies }
    }
    const cookie = () => [...values].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ")
    return { event, cookie }
  }

  it("sign-up writes the session through event.cookies and goes to redirectTo", async () => {
    const { auth } = app()
    const browser = kitBrowser()
    const { result, next } = await runPasswordForm(auth, { basePath: "/auth" }, browser.event({ email: "ada@example.com", password: GOOD, redirectTo: "/welcome" }), "password/sign-up")
    expect(result.ok).toBe(true)
    expect(next).toBe(`${APP}/welcome`)
    expect((await auth.auth(new Request(`${APP}/`, { headers: { cookie: browser.cookie() } })))?.user?.email).toBe("ada@example.com")
  })

  it("a refusal is the page's form data: its code and reason", async () => {
    const { auth } = app()
    const { result } = await runPasswordForm(auth, { basePath: "/auth" }, kitBrowser().event({ email: "ada@example.com", password: "short" }), "password/sign-up")
    expect(result.ok).toBe(false)
    expect(formError(result as { error: string })).toEqual({ error: "PasswordPolicy", reason: "too_short" })
  })
})
