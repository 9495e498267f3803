// The password pages as HTML (src/passwords/pages.ts): every visible input has a label and
// the autocomplete token a password manager reads, a refused field is aria-invalid and described by
// the error text, no page carries a script, and what the request brought (an address, a token, an
// error code) is escaped. The same pages are drawn in Chromium, light and dark, by
// test/e2e/password-pages.browser.test.ts.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth } from "../../src/handler/index.js"
import { errorMessage } from "../../src/handler/errors.js"
import type { AuthTheme } from "../../src/handler/options.js"
import { page } from "../../src/handler/pages/layout.js"
import type { PasswordPage as PasswordPageName, PasswordPageInput as PasswordPageProps } from "../../src/passwords/host.js"
import { passwordPage as renderPage, passwordSignInForm } from "../../src/passwords/pages.js"
import { passwordsWith } from "../../src/passwords/index.js"
import GitHub from "../../src/providers/github.js"
import Password, { type PasswordEmail, type PasswordUserConfig } from "../../src/providers/password.js"
import { CHEAP } from "../passwords/support.js"
import { SECRET } from "./support.js"

/** A password page in the handler's shell, as the password host answers it. */
const passwordPage = (name: PasswordPageName, props: PasswordPageProps, theme?: AuthTheme) => page(...renderPage(name, props, (code) => (code ? errorMessage(code) : undefined)), theme)

const BASE: PasswordPageProps = { action: "/auth/password/sign-up", csrfToken: "csrf-123", signInUrl: "/auth/signin", forgotUrl: "/auth/password/forgot", signUpUrl: "/auth/password/sign-up" }

/** Each `<input>` of a page, as its attributes. */
function inputs(html: string): Record<string, string>[] {
  return [...html.matchAll(/<input ([^>]*)>/g)].map(([, attributes]) => Object.fromEntries([...attributes!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name!, value ?? ""])))
}

function visibleInputs(html: string) {
  return inputs(html).filter((input) => input.type !== "hidden")
}

/** Every label's `for`. */
function labelled(html: string): string[] {
  return [...html.matchAll(/<label for="([^"]+)">[^<]+<\/label>/g)].map(([, id]) => id!)
}

function ids(html: string): string[] {
  return [...html.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id!)
}

const EVERY: [PasswordPageName, PasswordPageProps][] = [
  ["sign-up", { ...BASE, fields: [{ name: "company", label: "Company", required: true }] }],
  ["forgot", { ...BASE, action: "/auth/password/forgot" }],
  ["reset", { ...BASE, action: "/auth/password/reset", token: "tok", email: "ada@example.com" }],
  ["verify-email", { ...BASE, action: "/auth/password/verify-email", token: "tok", email: "ada@example.com" }],
  ["check-email", { ...BASE, kind: "verify-email" }],
]

describe("password pages", () => {
  it.each(EVERY)("%s: every visible input is labelled, ids are unique, aria-describedby points at something, and there is no script", (name, props) => {
    for (const error of [undefined, "PasswordPolicy", "RateLimited"]) {
      const html = passwordPage(name, { ...props, error, minLength: 15 })
      const all = ids(html)
      expect(new Set(all).size).toBe(all.length)
      for (const input of visibleInputs(html)) {
        expect(labelled(html), `a label for ${input.name}`).toContain(input.id)
        for (const described of (input["aria-describedby"] ?? "").split(" ").filter(Boolean)) expect(all).toContain(described)
      }
      expect(html).not.toMatch(/<script|\son\w+=/i)
    }
  })

  it("sign-up: email, a new password with its length said and enforced, the name and the app's fields, posting with the CSRF token", () => {
    const html = passwordPage("sign-up", { ...BASE, callbackUrl: "/welcome", minLength: 15, maxLength: 128, fields: [{ name: "company", label: "Company", required: true }] })
    const byName = Object.fromEntries(inputs(html).map((input) => [input.name, input]))
    expect(byName.email).toMatchObject({ type: "email", autocomplete: "email", required: "" })
    expect(byName.password).toMatchObject({ type: "password", autocomplete: "new-password", minlength: "15", maxlength: "128", "aria-describedby": "password-new-hint" })
    expect(html).toContain('<p class="hint" id="password-new-hint">At least 15 characters.')
    expect(byName.name).toMatchObject({ autocomplete: "name" })
    expect(byName.name!.required).toBeUndefined()
    expect(byName.company).toMatchObject({ required: "" })
    expect(byName.csrfToken).toMatchObject({ type: "hidden", value: "csrf-123" })
    expect(byName.callbackUrl).toMatchObject({ type: "hidden", value: "/welcome" })
    expect(html).toContain('<form method="post" action="/auth/password/sign-up">')
    expect(html).toContain('<a href="/auth/signin">Sign in</a>')
  })

  it("sign-up: without known bounds the page states none (a wrong number is worse than none)", () => {
    const html = passwordPage("sign-up", BASE)
    expect(html).not.toMatch(/minlength|At least \d+/)
  })

  it("sign-up: an app field cannot replace email, password or the CSRF token", () => {
    const html = passwordPage("sign-up", { ...BASE, fields: [{ name: "email", label: "Work email" }, { name: "csrfToken", label: "x" }, { name: "name", label: "Full name", required: true }] })
    expect(inputs(html).filter((input) => input.name === "email")).toHaveLength(1)
    expect(inputs(html).filter((input) => input.name === "csrfToken")).toHaveLength(1)
    expect(html).not.toContain("Work email")
    expect(html).toContain('<label for="password-name">Full name</label>')
    expect(inputs(html).find((input) => input.name === "name")).toMatchObject({ required: "" })
  })

  it("a policy refusal: the new password is invalid, described by the reason with the bound, and focused", () => {
    const html = passwordPage("sign-up", { ...BASE, error: "PasswordPolicy", reason: "too_short", minLength: 15 })
    const password = inputs(html).find((input) => input.name === "password")!
    expect(password).toMatchObject({ "aria-invalid": "true", "aria-describedby": "form-error password-new-hint", autofocus: "" })
    expect(html).toContain('<div class="alert" role="alert" id="form-error">This password is too short. Use at least 15 characters.</div>')
    const breached = passwordPage("reset", { ...BASE, token: "t", email: "a@example.com", error: "PasswordPolicy", reason: "breached" })
    expect(breached).toContain("has appeared in a data breach")
    // A reason that is not one of the four reads as the code's own text.
    expect(passwordPage("sign-up", { ...BASE, error: "PasswordPolicy", reason: "constructor" as never })).toContain("This password cannot be used. Choose a longer one")
  })

  it("an error that concerns no field marks none invalid", () => {
    const html = passwordPage("sign-up", { ...BASE, error: "RateLimited" })
    expect(html).toContain("Too many attempts")
    expect(html).not.toContain(`aria-invalid="true"`)
  })

  it("reset: the account's address read-only under the username token, the token hidden, the new password focused", () => {
    const html = passwordPage("reset", { ...BASE, action: "/auth/password/reset", token: "tok-1", email: "ada@example.com", minLength: 15 })
    const byName = Object.fromEntries(inputs(html).map((input) => [input.name, input]))
    expect(byName.email).toMatchObject({ autocomplete: "username", readonly: "", value: "ada@example.com" })
    expect(byName.token).toMatchObject({ type: "hidden", value: "tok-1" })
    expect(byName.password).toMatchObject({ autocomplete: "new-password", autofocus: "", minlength: "15" })
  })

  it("reset: a link without its token says it is not valid and offers a new one, with no form", () => {
    const html = passwordPage("reset", { ...BASE, action: "/auth/password/reset" })
    expect(html).not.toContain("<form")
    expect(html).toContain("This link is no longer valid")
    expect(html).toContain('<a href="/auth/password/forgot">Request a new link</a>')
  })

  it("forgot: an email field, and the answer will not say whether the address has an account", () => {
    const html = passwordPage("forgot", { ...BASE, action: "/auth/password/forgot", email: "ada@example.com" })
    expect(inputs(html).find((input) => input.name === "email")).toMatchObject({ autocomplete: "email", value: "ada@example.com" })
    expect(html).toContain("If it has one")
  })

  it("check-email: the text follows the kind; an unknown kind reads as the sign-up one", () => {
    expect(passwordPage("check-email", { ...BASE, kind: "reset" })).toContain("If an account uses your email address, we sent it a link to choose a new password.")
    expect(passwordPage("check-email", { ...BASE, kind: "change-email", email: "new@example.com" })).toContain("We sent a link to new@example.com. Your email address changes when you open it")
    expect(passwordPage("check-email", { ...BASE, kind: "verify-email" })).toContain("confirm your address and finish creating your account")
    expect(passwordPage("check-email", { ...BASE, kind: "__proto__" as never })).toContain("finish creating your account")
    expect(passwordPage("check-email", { ...BASE, kind: "reset" })).not.toContain("<form")
  })

  it("attack: markup in the address, the token, the callback URL or the error code is escaped", () => {
    const evil = `"><script>alert(1)</script><x y="`
    for (const [name, props] of EVERY) {
      const html = passwordPage(name, { ...props, email: `a${evil}@example.com`, token: evil, callbackUrl: evil, error: evil, signInUrl: `/x${evil}` })
      expect(html).not.toContain("<script>")
      expect(html).not.toContain('<x y="')
    }
  })

  it("the theme reaches the shell", () => {
    expect(passwordPage("forgot", BASE, { colorScheme: "dark", brandColor: "#0f766e" })).toContain("color-scheme:dark")
    expect(passwordPage("forgot", BASE, { brandColor: "#0f766e" })).toContain("--brand:#0f766e")
  })

  it("the sign-in form: the username and current-password tokens, the links, and a refusal that names neither field", () => {
    const form = passwordSignInForm({ id: "password", action: "/auth/callback/password", common: '<input type="hidden" name="csrfToken" value="c">', forgotUrl: "/auth/password/forgot", signUpUrl: "/auth/password/sign-up" })
    const byName = Object.fromEntries(inputs(form).map((input) => [input.name, input]))
    expect(byName.email).toMatchObject({ type: "email", autocomplete: "username", id: "password-signin-email" })
    expect(byName.password).toMatchObject({ type: "password", autocomplete: "current-password", id: "password-signin-password" })
    expect(labelled(form)).toEqual(["password-signin-email", "password-signin-password"])
    expect(form).toContain('<a href="/auth/password/forgot">Forgot your password?</a>')
    expect(form).toContain('<a href="/auth/password/sign-up">Create one</a>')
    const refused = passwordSignInForm({ id: "password", action: "/a", common: "", error: "CredentialsSignin" })
    expect(inputs(refused).map((input) => input["aria-invalid"])).toEqual(["true", "true"])
    expect(refused).not.toContain("Forgot")
  })
})

describe("password pages through the handler", () => {
  const cheap = passwordsWith(CHEAP)
  const mailbox: PasswordEmail[] = []
  const app = (provider: PasswordUserConfig = {}) =>
    createAuth({
      providers: [GitHub({ clientId: "id", clientSecret: "secret" }), Password({ sendEmail: (mail) => void mailbox.push(mail), ...provider })],
      adapter: memoryAdapter(),
      passwords: cheap,
      secret: SECRET,
      trustHost: true,
      env: {},
      rateLimits: false,
    })
  const page = async (auth: ReturnType<typeof app>, path: string) => {
    const response = await auth.handler(new Request(`http://localhost:3000/auth/${path}`))
    expect(response.status).toBe(200)
    expect(response.headers.get("content-security-policy")).not.toContain("script-src")
    return response.text()
  }

  it("the sign-in page: the email + password form posts to callback/password beside the OAuth button, with links that keep the callback URL", async () => {
    const html = await page(app(), "signin?callbackUrl=%2Fdashboard")
    expect(html).toContain('<form method="post" action="http://localhost:3000/auth/callback/password">')
    expect(html).toContain('action="http://localhost:3000/auth/signin/github"')
    expect(html.indexOf("signin/github")).toBeLessThan(html.indexOf("callback/password"))
    const form = /<form method="post" action="[^"]*callback\/password">.*?<\/form>/.exec(html)![0]
    expect(Object.fromEntries(inputs(form).map((input) => [input.name, input.value ?? input.autocomplete]))).toMatchObject({ csrfToken: expect.any(String), callbackUrl: "http://localhost:3000/dashboard", email: "username", password: "current-password" })
    expect(html).toContain('<a href="http://localhost:3000/auth/password/forgot?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdashboard">Forgot your password?</a>')
    expect(html).toContain('<a href="http://localhost:3000/auth/password/sign-up?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2Fdashboard">Create one</a>')
  })

  it("the sign-in page without sign-up: no link to it", async () => {
    const html = await page(app({ allowSignUp: false }), "signin")
    expect(html).toContain("Forgot your password?")
    expect(html).not.toContain("password/sign-up")
  })

  it("the sign-in page after a wrong password: the text says so without naming a field, and both fields point at it", async () => {
    const html = await page(app(), "signin?error=CredentialsSignin")
    expect(html).toContain('<div class="alert" role="alert" id="form-error">Sign-in failed.')
    const fields = visibleInputs(/<form method="post" action="[^"]*callback\/password">.*?<\/form>/.exec(html)![0])
    expect(fields.map((input) => [input.name, input["aria-invalid"], input["aria-describedby"]])).toEqual([
      ["email", "true", "form-error"],
      ["password", "true", "form-error"],
    ])
  })

  it("the sign-up page says the policy's minimum and the browser enforces it; the forgot link keeps the callback URL", async () => {
    const html = await page(app(), "password/sign-up?callbackUrl=%2Fwelcome")
    expect(inputs(html).find((input) => input.name === "password")).toMatchObject({ minlength: "15", maxlength: "128" })
    expect(html).toContain("At least 15 characters.")
    expect(inputs(html).find((input) => input.name === "callbackUrl")).toMatchObject({ value: "/welcome" })
  })

  it("a refused reset comes back with its reason on the page", async () => {
    const html = await page(app(), "password/reset?token=t&email=ada%40example.com&error=PasswordPolicy&reason=breached")
    expect(html).toContain("has appeared in a data breach")
    expect(inputs(html).find((input) => input.name === "password")).toMatchObject({ "aria-invalid": "true" })
  })

  it("check your email: the kind's text on the verify-request page", async () => {
    expect(await page(app(), "verify-request?provider=password&kind=reset")).toContain("we sent it a link to choose a new password")
    expect(await page(app(), "verify-request?provider=password&kind=change-email")).toContain("Your email address changes when you open it")
  })
})
