// Forgot → mailed link → reset, and the reset token's attacks: replay, expiry, a link used for
// another user, an older link after a newer one. Sessions end everywhere after a reset (JWT and
// database), and this browser is signed in.
import { afterEach, describe, expect, it, vi } from "vitest"
import { GOOD, linkOf, ORIGIN, OTHER, passwordApp, signedUpUser, type Browser } from "./flows-support.js"

const NEW = "a brand new passphrase here"

async function requestReset(app: ReturnType<typeof passwordApp>, email: string) {
  const answer = await app.browser().post("/auth/password/forgot", { email })
  expect(answer.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=password&kind=reset`)
  return app.mailTo(email, "reset")
}

function resetFields(link: string, password = NEW): Record<string, string> {
  const query = new URL(link, ORIGIN).searchParams
  return { token: query.get("token")!, email: query.get("email")!, password }
}

function reset(browser: Browser, fields: Record<string, string>) {
  return browser.post("/auth/password/reset", fields, { script: true })
}

afterEach(() => {
  vi.useRealTimers()
})

describe.each(["jwt", "database"] as const)("forgot and reset with %s sessions", (strategy) => {
  it("mails a link whose token is stored hashed, sets the new password, ends every session and signs this browser in", async () => {
    const app = passwordApp({ strategy })
    const laptop = await signedUpUser(app, "ada@example.com")
    const phone = app.browser()
    expect((await phone.signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
    expect((await laptop.session())?.user?.email).toBe("ada@example.com")

    const mail = (await requestReset(app, "ada@example.com"))!
    const token = resetFields(linkOf(mail)).token!
    expect(mail.text).toContain(mail.url)
    // The adapter keeps no token as mailed.
    const stored = JSON.stringify(app.tokenRows)
    expect(app.tokenRows.length).toBeGreaterThan(0)
    expect(stored).not.toContain(token)
    expect(stored).not.toContain(token.split(".")[0])

    // The reset page is served with the token and a CSRF form.
    const page = await app.browser().get(linkOf(mail))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('name="token"')

    const here = app.browser()
    const answer = await reset(here, resetFields(linkOf(mail)))
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ url: `${ORIGIN}/` })
    expect((await here.session())?.user?.email).toBe("ada@example.com")
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@example.com", NEW, { script: true })).status).toBe(200)
    expect(app.errors).toEqual([])
  })

  it("voids a reset link mailed to an address the account moved away from, even once it moves back", async () => {
    const app = passwordApp({ strategy })
    const ada = await signedUpUser(app, "ada@example.com")
    // Mailed to the old address; whoever reads that mailbox later (a former employer's) holds it.
    const mail = (await requestReset(app, "ada@example.com"))!
    for (const to of ["ada@new.example", "ada@example.com"]) {
      expect((await ada.post("/auth/password/change-email", { newEmail: to, password: GOOD }, { script: true })).status).toBe(200)
      expect((await ada.get(linkOf(app.mailTo(to, "change-email")))).status).toBe(302)
    }
    expect((await ada.session())?.user?.email).toBe("ada@example.com")
    const late = await reset(app.browser(), resetFields(linkOf(mail)))
    expect(late.status).toBe(400)
    expect(await late.json()).toEqual({ error: "InvalidToken" })
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
  })

  it("keeps the other sessions when the app turned revocation off", async () => {
    const app = passwordApp({ strategy, provider: { revokeSessionsOnReset: false } })
    const laptop = await signedUpUser(app, "ada@example.com")
    const mail = await requestReset(app, "ada@example.com")
    expect((await reset(app.browser(), resetFields(linkOf(mail)))).status).toBe(200)
    expect((await laptop.session())?.user?.email).toBe("ada@example.com")
  })

  it("refuses a replayed link", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    const fields = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    expect((await reset(app.browser(), fields)).status).toBe(200)
    const replay = await reset(app.browser(), { ...fields, password: "the attacker's own passphrase" })
    expect(replay.status).toBe(400)
    expect(await replay.json()).toEqual({ error: "InvalidToken" })
    expect((await app.browser().signIn("ada@example.com", NEW, { script: true })).status).toBe(200)
  })

  it("refuses an expired link", async () => {
    const app = passwordApp({ strategy, provider: { tokenMaxAge: { reset: 60 } } })
    await signedUpUser(app, "ada@example.com")
    const fields = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] })
    const late = await reset(app.browser(), fields)
    expect(await late.json()).toEqual({ error: "InvalidToken" })
    vi.useRealTimers()
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
  })

  it("refuses user A's link for user B, and a token moved onto B's address", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    await signedUpUser(app, "bob@example.com")
    const adaLink = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    const forBob = await reset(app.browser(), { ...adaLink, email: "bob@example.com" })
    expect(await forBob.json()).toEqual({ error: "InvalidToken" })
    // A token re-labelled with Bob's id (the part after the dot) finds no row either.
    const bob = [...app.adapter.users.values()].find((user) => user.email === "bob@example.com")!
    const relabelled = `${adaLink.token!.split(".")[0]}.${Buffer.from(bob.id).toString("base64url")}`
    const forged = await reset(app.browser(), { ...adaLink, token: relabelled, email: "bob@example.com" })
    expect(await forged.json()).toEqual({ error: "InvalidToken" })
    expect((await app.browser().signIn("bob@example.com", GOOD, { script: true })).status).toBe(200)
  })

  it("refuses an older link once a newer one was mailed, and the newer one still works", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    const older = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    const newer = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    expect(older.token).not.toBe(newer.token)
    const stale = await reset(app.browser(), older)
    expect(await stale.json()).toEqual({ error: "InvalidToken" })
    expect((await reset(app.browser(), newer)).status).toBe(200)
  })

  it("checks the new password before it spends the link: a weak one leaves the link usable", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    const fields = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    const weak = await reset(app.browser(), { ...fields, password: "short" })
    expect(await weak.json()).toEqual({ error: "PasswordPolicy", reason: "too_short" })
    expect((await reset(app.browser(), fields)).status).toBe(200)
  })

  it("answers forgot for an unknown address and an OAuth-only user as for a known one, and mails nothing", async () => {
    const app = passwordApp({ strategy })
    await app.adapter.createUser({ email: "oauth@example.com", emailVerified: new Date() })
    await requestReset(app, "nobody@example.com")
    await requestReset(app, "oauth@example.com")
    expect(app.mailbox).toEqual([])
  })

  it("lets a user who lost the verification mail in through a reset: the link proves the address", async () => {
    const app = passwordApp({ strategy })
    expect((await app.browser().signUp({ email: "ada@example.com", password: GOOD })).status).toBe(302)
    const fields = resetFields(linkOf(await requestReset(app, "ada@example.com")))
    const here = app.browser()
    expect((await reset(here, { ...fields, password: OTHER })).status).toBe(200)
    expect((await here.session())?.user?.email).toBe("ada@example.com")
  })
})
