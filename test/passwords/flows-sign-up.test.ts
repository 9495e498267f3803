// Sign-up, email verification and sign-in through createAuth's handler, with JWT and database
// sessions, a captured mailbox and a cookie jar.
import { afterEach, describe, expect, it, vi } from "vitest"
import { GOOD, linkOf, ORIGIN, passwordApp, signedUpUser } from "./flows-support.js"

describe.each(["jwt", "database"] as const)("password sign-up and sign-in with %s sessions", (strategy) => {
  afterEach(() => void vi.useRealTimers())

  it("a sign-in before verifying mails a fresh link once the newest is 12 minutes old, and that one supersedes it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const app = passwordApp({ strategy })
    const browser = app.browser()
    await browser.signUp({ email: "ada@example.com", password: GOOD })
    const verifyMails = () => app.mailbox.filter((sent) => sent.kind === "verify-email")
    vi.setSystemTime(Date.now() + 11 * 60_000)
    expect((await browser.signIn("ada@example.com", GOOD, { script: true })).status).toBe(403)
    expect(verifyMails()).toHaveLength(1)
    vi.setSystemTime(Date.now() + 2 * 60_000)
    expect((await browser.signIn("ada@example.com", GOOD, { script: true })).status).toBe(403)
    const [first, fresh, ...more] = verifyMails()
    expect(more).toEqual([])
    // And not again at once: the fresh link is the newest now.
    expect((await browser.signIn("ada@example.com", GOOD, { script: true })).status).toBe(403)
    expect(verifyMails()).toHaveLength(2)
    expect((await browser.get(linkOf(first))).headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=InvalidToken`)
    expect((await browser.get(linkOf(fresh))).status).toBe(302)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    expect(app.errors).toEqual([])
  })

  it("signs up, mails a verification link, refuses sign-in until it is followed, then signs in", async () => {
    const app = passwordApp({ strategy })
    const browser = app.browser()
    const answer = await browser.signUp({ email: "Ada@Example.com", password: GOOD, name: "Ada Lovelace", callbackUrl: `${ORIGIN}/dashboard` })
    expect(answer.status).toBe(302)
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&kind=verify-email`)
    const [user] = [...app.adapter.users.values()]
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", emailVerified: null })
    expect(user).not.toHaveProperty("password")
    expect(await app.adapter.getUserPassword(user!.id)).toMatch(/^\$scrypt\$/)
    expect(await browser.session()).toBeNull()

    const refused = await browser.signIn("ada@example.com", GOOD, { script: true })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "EmailNotVerified" })

    // The sign-up's link is minutes old: the refused sign-in mails no other (see the next test).
    const [mail, ...more] = app.mailbox.filter((sent) => sent.kind === "verify-email")
    expect(more).toEqual([])
    expect(mail!.text).toContain(mail!.url)
    expect(mail!.url).toContain(encodeURIComponent(`${ORIGIN}/dashboard`))
    const verified = await browser.get(linkOf(mail))
    expect(verified.status).toBe(302)
    expect(verified.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    expect(app.adapter.users.get(user!.id)!.emailVerified).toBeInstanceOf(Date)

    // The link works once.
    const again = await browser.get(linkOf(mail))
    expect(again.headers.get("location")).toContain("error=InvalidToken")

    const other = app.browser()
    const signedIn = await other.signIn("ADA@example.com", GOOD, { script: true })
    expect(signedIn.status).toBe(200)
    expect(await signedIn.json()).toEqual({ url: `${ORIGIN}/` })
    expect((await other.session())?.user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace" })
    expect(app.errors).toEqual([])
  })

  it("signs in at once when verification is off, and a form post is redirected with the session cookie", async () => {
    const app = passwordApp({ strategy, provider: { requireEmailVerification: false } })
    const browser = app.browser()
    const answer = await browser.signUp({ email: "ada@example.com", password: GOOD, callbackUrl: `${ORIGIN}/welcome` })
    expect(answer.status).toBe(302)
    expect(answer.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    expect(app.mailbox).toEqual([])
  })

  it("answers a wrong password, an unknown address and a user without a password with CredentialsSignin", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    await app.adapter.createUser({ email: "oauth@example.com", emailVerified: new Date() })
    for (const [email, password] of [["ada@example.com", "wrong password entirely"], ["nobody@example.com", GOOD], ["oauth@example.com", GOOD], ["not an address", GOOD]]) {
      const form = await app.browser().signIn(email!, password!)
      expect(form.status).toBe(302)
      expect(form.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin`)
      const json = await app.browser().signIn(email!, password!, { json: true })
      expect(json.status).toBe(401)
      expect(await json.json()).toEqual({ error: "CredentialsSignin" })
    }
  })

  it("types policy errors, keeps the app's fields through the signUp callback, and refuses when the app says no", async () => {
    const app = passwordApp({
      strategy,
      provider: {
        requireEmailVerification: false,
        signUpFields: [{ name: "company", label: "Company", required: true }],
        signUp: ({ email, fields }) => (email.endsWith("@blocked.example") ? false : { company: fields.company!.toUpperCase(), role: "member", id: "forged", emailVerified: new Date() }),
      },
    })
    const browser = app.browser()
    const short = await browser.signUp({ email: "ada@example.com", password: "short", company: "acme" }, { script: true })
    expect(short.status).toBe(400)
    expect(await short.json()).toEqual({ error: "PasswordPolicy", reason: "too_short" })
    const long = await browser.signUp({ email: "ada@example.com", password: "x".repeat(10_000), company: "acme" }, { script: true })
    expect(await long.json()).toEqual({ error: "PasswordPolicy", reason: "too_long" })
    // A 1 MB password never reaches the routes: the body is over the handler's bound.
    const huge = await browser.signUp({ email: "ada@example.com", password: "x".repeat(1_000_000), company: "acme" }, { script: true })
    expect(huge.status).toBe(413)
    const missing = await browser.signUp({ email: "ada@example.com", password: GOOD }, { script: true })
    expect(await missing.json()).toEqual({ error: "InvalidRequest" })
    const blocked = await browser.signUp({ email: "eve@blocked.example", password: GOOD, company: "x" }, { script: true })
    expect(await blocked.json()).toEqual({ error: "AccessDenied" })
    const formPolicy = await browser.signUp({ email: "ada@example.com", password: "short", company: "acme" })
    expect(formPolicy.headers.get("location")).toBe(`${ORIGIN}/auth/password/sign-up?error=PasswordPolicy&reason=too_short`)
    expect(app.adapter.users.size).toBe(0)

    const made = await browser.signUp({ email: "ada@example.com", password: GOOD, company: "acme" }, { script: true })
    expect(made.status).toBe(200)
    const [user] = [...app.adapter.users.values()]
    expect(user).toMatchObject({ email: "ada@example.com", company: "ACME", role: "member", emailVerified: null })
    expect(user!.id).not.toBe("forged")
  })

  it("refuses sign-up when the app turned it off", async () => {
    const app = passwordApp({ strategy, provider: { allowSignUp: false } })
    const answer = await app.browser().signUp({ email: "ada@example.com", password: GOOD }, { script: true })
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({ error: "SignUpDisabled" })
    expect(app.adapter.users.size).toBe(0)
  })
})

describe("password pages", () => {
  it("serves sign-up, forgot, reset and check-email pages with a CSRF form, and the sign-in page with a password provider", async () => {
    const app = passwordApp({ provider: { signUpFields: [{ name: "company", label: "Company", required: true }] } })
    const browser = app.browser()
    for (const [path, marks] of [
      ["/auth/password/sign-up", ['name="company"', 'action="https://app.example.com/auth/password/sign-up"']],
      ["/auth/password/forgot?email=ada%40example.com", ['action="https://app.example.com/auth/password/forgot"', 'value="ada@example.com"']],
      ["/auth/password/reset?token=t.x&email=ada%40example.com", ['name="token" value="t.x"', 'action="https://app.example.com/auth/password/reset"']],
    ] as const) {
      const page = await browser.get(path)
      expect(page.status, path).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      const html = await page.text()
      expect(html).toContain('name="csrfToken"')
      for (const mark of marks) expect(html, path).toContain(mark)
    }
    const check = await browser.get("/auth/verify-request?provider=password&kind=reset")
    expect(await check.text()).toContain("choose a new password")
    expect((await browser.get("/auth/signin")).status).toBe(200)
    // HEAD must not spend a mailed link.
    expect((await browser.fetch(`${ORIGIN}/auth/password/verify-email?token=x&email=a%40b.c`, { method: "HEAD" })).status).toBe(405)
    const providers = await (await browser.get("/auth/providers")).json()
    expect(providers).toEqual({ password: expect.objectContaining({ id: "password", type: "password", callbackUrl: `${ORIGIN}/auth/callback/password` }) })
  })

  it("refuses a Password provider without the plug-in or without sendEmail at createAuth", async () => {
    const { createAuth } = await import("../../src/handler/index.js")
    const { default: Password } = await import("../../src/providers/password.js")
    const { memoryAdapter } = await import("../../src/adapters/memory-adapter.js")
    const base = { adapter: memoryAdapter(), secret: "latchkey-password-flows-secret-0123456789", env: { AUTH_URL: `${ORIGIN}/auth` } }
    expect(() => createAuth({ ...base, providers: [Password({ sendEmail: () => {} })] })).toThrow(/latchkey\/passwords/)
    const { passwords } = await import("../../src/passwords/index.js")
    expect(() => createAuth({ ...base, providers: [Password()], passwords })).toThrow(expect.objectContaining({ field: "sendEmail" }))
    const { getUserPassword: _get, ...withoutColumn } = memoryAdapter()
    expect(() => createAuth({ ...base, adapter: withoutColumn, providers: [Password({ sendEmail: () => {} })], passwords })).toThrow(/getUserPassword/)
  })
})
