// latchkey/client's password account calls against the real handler (createAuth with a Password
// provider, the `passwords` plug-in with cheap hashing, the memory adapter and a captured mailbox;
// no network): sign-up with and without verification, password sign-in through signIn("password"),
// forgot and reset, change of password and of address. Every refusal is a value with its stable
// code, `retryAfter` on RateLimited and `reason` on PasswordPolicy; nothing throws.
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Password, { type PasswordEmail, type PasswordUserConfig } from "../../src/providers/password.js"
import { passwordsWith } from "../../src/passwords/index.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { InvalidOptionError } from "../../src/errors.js"
import { CHEAP } from "../passwords/support.js"
import { APP, clientApp, freshBrowser } from "./support.js"

const GOOD = "correct horse battery staple"
const NEW = "a different long passphrase"
const cheap = passwordsWith(CHEAP)

function passwordClient(provider: PasswordUserConfig = {}, config: Partial<AuthConfig> = {}) {
  const mailbox: PasswordEmail[] = []
  const app = clientApp({ providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), ...provider })], adapter: memoryAdapter(), passwords: cheap, rateLimits: false, ...config })
  const mailTo = (to: string, kind?: PasswordEmail["kind"]) => [...mailbox].reverse().find((mail) => mail.to === to && (kind === undefined || mail.kind === kind))
  /** Opens a mailed link in the client's browser (as clicking it in the same browser would). */
  const open = async (mail: PasswordEmail | undefined) => {
    if (!mail?.url) throw new Error("no link")
    return (await app.page.browser.open(mail.url)).url
  }
  return { ...app, mailbox, mailTo, open }
}

/** A user who signed up (verification off) and is signed in on the client's browser. */
async function signedUp(provider: PasswordUserConfig = {}, config: Partial<AuthConfig> = {}) {
  const app = passwordClient({ requireEmailVerification: false, ...provider }, config)
  expect(await app.client.signUp({ email: "ada@example.com", password: GOOD, name: "Ada" }, { redirect: false })).toMatchObject({ ok: true })
  return app
}

describe("latchkey/client: password accounts", () => {
  it("signUp with verification on: ok with the check-email page, nobody signed in until the mailed link is opened", async () => {
    const { client, mailTo, open } = passwordClient()
    const result = await client.signUp({ email: "ada@example.com", password: GOOD, name: "Ada" }, { redirectTo: "/welcome", redirect: false })
    expect(result).toEqual({ ok: true, url: `${APP}/auth/verify-request?provider=password&kind=verify-email`, status: 200 })
    expect(client.getState()).toEqual({ data: null, status: "unauthenticated" })
    const landed = await open(mailTo("ada@example.com", "verify-email"))
    expect(landed.href).toBe(`${APP}/welcome`)
    expect((await client.getSession())?.user).toMatchObject({ email: "ada@example.com", name: "Ada" })
  })

  it("signUp with verification off signs in at once: the state is the new user without another call", async () => {
    const { client } = await signedUp()
    expect(client.getState()).toMatchObject({ status: "authenticated", data: { user: { email: "ada@example.com", name: "Ada" } } })
  })

  it("signUp sends the app's own fields to its signUp callback", async () => {
    const seen: unknown[] = []
    const { client } = passwordClient({ requireEmailVerification: false, signUpFields: [{ name: "company", label: "Company" }], signUp: (input) => (seen.push(input), {}) })
    await client.signUp({ email: "ada@example.com", password: GOOD, company: "Analytical Engines" }, { redirect: false })
    expect(seen).toEqual([{ email: "ada@example.com", fields: { company: "Analytical Engines" } }])
  })

  it("a policy refusal is a value with its reason; a refused sign-up signs nobody in", async () => {
    const { client } = passwordClient({ requireEmailVerification: false })
    expect(await client.signUp({ email: "ada@example.com", password: "short" }, { redirect: false })).toEqual({ ok: false, error: "PasswordPolicy", reason: "too_short", status: 400 })
    expect(await client.signUp({ email: "ada@example.com", password: "x".repeat(1_000) }, { redirect: false })).toMatchObject({ ok: false, error: "PasswordPolicy", reason: "too_long" })
    // A 1 MB password never reaches the route: the handler refuses the body (413, not JSON).
    expect(await client.signUp({ email: "ada@example.com", password: "x".repeat(1_000_000) }, { redirect: false })).toEqual({ ok: false, error: "InvalidResponse", status: 413 })
    expect(await client.getSession()).toBeNull()
  })

  it("signUp with sign-up turned off: SignUpDisabled", async () => {
    const { client } = passwordClient({ allowSignUp: false })
    expect(await client.signUp({ email: "ada@example.com", password: GOOD }, { redirect: false })).toMatchObject({ ok: false, error: "SignUpDisabled", status: 403 })
  })

  it("signUp refuses next-auth's callbackUrl option by name, as signIn does", async () => {
    const { client } = passwordClient()
    await expect(client.signUp({ email: "a@example.com", password: GOOD }, { callbackUrl: "/x" } as never)).rejects.toThrow(InvalidOptionError)
  })

  it('signIn("password", { email, password }): a wrong password is CredentialsSignin, the right one signs in', async () => {
    const { client, page, dispatch } = await signedUp()
    await client.signOut({ redirect: false })
    page.browser = freshBrowser(dispatch)
    expect(await client.signIn("password", { email: "ada@example.com", password: "wrong password entirely", redirect: false })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(await client.signIn("password", { email: "nobody@example.com", password: GOOD, redirect: false })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    const result = await client.signIn("password", { email: "ada@example.com", password: GOOD, redirectTo: "/dashboard", redirect: false })
    expect(result).toMatchObject({ ok: true, url: `${APP}/dashboard` })
    expect(client.getState()).toMatchObject({ status: "authenticated", data: { user: { email: "ada@example.com" } } })
  })

  it("an unverified address signs in with EmailNotVerified only after the right password", async () => {
    const { client } = passwordClient()
    await client.signUp({ email: "ada@example.com", password: GOOD }, { redirect: false })
    expect(await client.signIn("password", { email: "ada@example.com", password: "wrong password entirely", redirect: false })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(await client.signIn("password", { email: "ada@example.com", password: GOOD, redirect: false })).toMatchObject({ ok: false, error: "EmailNotVerified" })
  })

  it("requestPasswordReset answers the same for a known and an unknown address; only the known one gets a link", async () => {
    const { client, mailbox } = await signedUp()
    const before = mailbox.length
    const known = await client.requestPasswordReset("ada@example.com")
    const unknown = await client.requestPasswordReset("nobody@example.com")
    expect(known).toEqual({ ok: true, url: `${APP}/auth/verify-request?provider=password&kind=reset`, status: 200 })
    expect(unknown).toEqual(known)
    expect(mailbox.slice(before).map((mail) => [mail.to, mail.kind])).toEqual([["ada@example.com", "reset"]])
  })

  it("resetPassword with the mailed token: the new password works, the old does not, and the link cannot be used again", async () => {
    const { client, mailTo, page, dispatch } = await signedUp()
    await client.requestPasswordReset("ada@example.com")
    const link = new URL(mailTo("ada@example.com", "reset")!.url!)
    const fields = { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: NEW }
    // The link opened in another browser, as from a phone's mail app.
    page.browser = freshBrowser(dispatch)
    expect(await client.resetPassword({ ...fields, password: "short" }, { redirect: false })).toMatchObject({ ok: false, error: "PasswordPolicy", reason: "too_short" })
    const reset = await client.resetPassword(fields, { redirectTo: "/account", redirect: false })
    expect(reset).toMatchObject({ ok: true })
    expect(client.getState()).toMatchObject({ status: "authenticated", data: { user: { email: "ada@example.com" } } })
    expect(await client.resetPassword(fields, { redirect: false })).toMatchObject({ ok: false, error: "InvalidToken", status: 400 })
    await client.signOut({ redirect: false })
    expect(await client.signIn("password", { email: "ada@example.com", password: GOOD, redirect: false })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(await client.signIn("password", { email: "ada@example.com", password: NEW, redirect: false })).toMatchObject({ ok: true })
  })

  it("a reset ends the user's other sessions (JWT): a browser signed in before the reset is signed out", async () => {
    const { client, mailTo, page, dispatch } = await signedUp()
    const before = page.browser
    expect(await client.getSession()).not.toBeNull()
    await client.requestPasswordReset("ada@example.com")
    const link = new URL(mailTo("ada@example.com", "reset")!.url!)
    page.browser = freshBrowser(dispatch)
    expect(await client.resetPassword({ token: link.searchParams.get("token")!, email: "ada@example.com", password: NEW }, { redirect: false })).toMatchObject({ ok: true })
    page.browser = before
    expect(await client.getSession()).toBeNull()
  })

  it("changePassword: signed out is SessionRequired, a wrong current password InvalidCurrentPassword; the right one keeps this browser signed in", async () => {
    const { client, page, dispatch } = await signedUp()
    const signedIn = page.browser
    page.browser = freshBrowser(dispatch)
    expect(await client.changePassword({ currentPassword: GOOD, newPassword: NEW })).toMatchObject({ ok: false, error: "SessionRequired", status: 401 })
    page.browser = signedIn
    expect(await client.changePassword({ currentPassword: "not my password at all", newPassword: NEW })).toMatchObject({ ok: false, error: "InvalidCurrentPassword", status: 403 })
    expect(await client.changePassword({ currentPassword: GOOD, newPassword: "short" })).toMatchObject({ ok: false, error: "PasswordPolicy", reason: "too_short" })
    expect(await client.changePassword({ currentPassword: GOOD, newPassword: NEW, revokeOtherSessions: true })).toMatchObject({ ok: true, status: 200 })
    expect(client.getState()).toMatchObject({ status: "authenticated" })
    await client.signOut({ redirect: false })
    expect(await client.signIn("password", { email: "ada@example.com", password: NEW, redirect: false })).toMatchObject({ ok: true })
  })

  it("changePassword with revokeOtherSessions ends the other browsers' sessions, and without it keeps them", async () => {
    const { client, page, dispatch } = await signedUp()
    const here = page.browser
    const other = freshBrowser(dispatch)
    page.browser = other
    await client.signIn("password", { email: "ada@example.com", password: GOOD, redirect: false })
    page.browser = here
    expect(await client.changePassword({ currentPassword: GOOD, newPassword: NEW })).toMatchObject({ ok: true })
    page.browser = other
    expect(await client.getSession()).not.toBeNull()
    page.browser = here
    expect(await client.changePassword({ currentPassword: NEW, newPassword: GOOD, revokeOtherSessions: true })).toMatchObject({ ok: true })
    expect(await client.getSession()).not.toBeNull()
    page.browser = other
    expect(await client.getSession()).toBeNull()
  })

  it("changeEmail mails the new address; the address changes when its link is opened", async () => {
    const { client, mailTo, open } = await signedUp()
    expect(await client.changeEmail({ newEmail: "ada@new.example", password: "wrong password entirely" })).toMatchObject({ ok: false, error: "InvalidCurrentPassword" })
    expect(await client.changeEmail({ newEmail: "ada@new.example", password: GOOD })).toMatchObject({ ok: true, status: 200 })
    expect(mailTo("ada@example.com", "email-changed-notice")).toBeDefined()
    await open(mailTo("ada@new.example", "change-email"))
    await client.signOut({ redirect: false })
    expect(await client.signIn("password", { email: "ada@new.example", password: GOOD, redirect: false })).toMatchObject({ ok: true })
  })

  it("a rate limit is a value with retryAfter", async () => {
    const limits = rateLimits({ routes: { "password-forgot": { client: { limit: 100, windowSeconds: 60 }, identifier: { limit: 1, windowSeconds: 600 } } } })
    const { client } = passwordClient({}, { rateLimits: limits })
    expect(await client.requestPasswordReset("ada@example.com")).toMatchObject({ ok: true })
    const limited = await client.requestPasswordReset("ada@example.com")
    expect(limited).toMatchObject({ ok: false, error: "RateLimited", status: 429 })
    expect(limited.retryAfter).toBeGreaterThan(0)
    expect(limited.retryAfter).toBeLessThanOrEqual(600)
  })

  it('attack: signIn("password") posts to signin/password, which is limited as the page\'s callback/password is', async () => {
    const limits = rateLimits({ routes: { "password-sign-in": { client: { limit: 100, windowSeconds: 60 }, identifier: { limit: 2, windowSeconds: 900 } } } })
    const { client } = await signedUp({}, { rateLimits: limits })
    await client.signOut({ redirect: false })
    const guesses = []
    for (let guess = 0; guess < 4; guess++) guesses.push((await client.signIn("password", { email: "ada@example.com", password: `guess number ${guess} here`, redirect: false })).error)
    expect(guesses).toEqual(["CredentialsSignin", "CredentialsSignin", "RateLimited", "RateLimited"])
    const limited = await client.signIn("password", { email: "ada@example.com", password: GOOD, redirect: false })
    expect(limited).toMatchObject({ ok: false, error: "RateLimited", status: 429 })
    expect(limited.retryAfter).toBeGreaterThan(0)
  })

  it("a network failure is a value, not an exception", async () => {
    const { client } = passwordClient()
    const offline = clientApp({ providers: [] }, { fetch: () => Promise.reject(new TypeError("offline")) }).client
    expect(await offline.requestPasswordReset("ada@example.com")).toEqual({ ok: false, error: "NetworkError", status: 0 })
    expect(await client.changeEmail({ newEmail: "x@example.com", password: GOOD })).toMatchObject({ ok: false, error: "SessionRequired" })
  })
})
