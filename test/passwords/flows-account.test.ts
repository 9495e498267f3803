// What a signed-in user changes with the current password: the password (optionally ending every
// other session) and the address (a link to the new one, a notice to the old; the old one signs in
// until the link is followed; an address of another user is never taken).
import { describe, expect, it } from "vitest"
import { rateLimits } from "latchkey/rate-limits"
import { type Browser, GOOD, linkOf, ORIGIN, OTHER, passwordApp, signedUpUser } from "./flows-support.js"

describe.each(["jwt", "database"] as const)("changes with %s sessions", (strategy) => {
  it("changes the password only with the current one, and keeps other sessions unless asked", async () => {
    const app = passwordApp({ strategy })
    const laptop = await signedUpUser(app, "ada@example.com")
    const phone = app.browser()
    await phone.signIn("ada@example.com", GOOD)

    const anonymous = await app.browser().post("/auth/password/change", { currentPassword: GOOD, newPassword: OTHER }, { script: true })
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({ error: "SessionRequired" })
    const without = await laptop.post("/auth/password/change", { newPassword: OTHER }, { script: true })
    expect(without.status).toBe(403)
    expect(await without.json()).toEqual({ error: "InvalidCurrentPassword" })
    const wrong = await laptop.post("/auth/password/change", { currentPassword: "not the password at all", newPassword: OTHER }, { script: true })
    expect(await wrong.json()).toEqual({ error: "InvalidCurrentPassword" })
    const weak = await laptop.post("/auth/password/change", { currentPassword: GOOD, newPassword: "short" }, { script: true })
    expect(await weak.json()).toEqual({ error: "PasswordPolicy", reason: "too_short" })

    const changed = await laptop.post("/auth/password/change", { currentPassword: GOOD, newPassword: OTHER }, { script: true })
    expect(changed.status).toBe(200)
    expect(await changed.json()).toEqual({ url: `${ORIGIN}/` })
    expect((await phone.session())?.user?.email).toBe("ada@example.com")
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@example.com", OTHER, { script: true })).status).toBe(200)
  })

  it("ends every other session when asked, and re-issues this browser's", async () => {
    const app = passwordApp({ strategy })
    const laptop = await signedUpUser(app, "ada@example.com")
    const phone = app.browser()
    await phone.signIn("ada@example.com", GOOD)
    const before = laptop.cookie
    const changed = await laptop.post("/auth/password/change", { currentPassword: GOOD, newPassword: OTHER, revokeOtherSessions: "true" }, { script: true })
    expect(changed.status).toBe(200)
    expect(laptop.cookie).not.toBe(before)
    expect((await laptop.session())?.user?.email).toBe("ada@example.com")
    expect(await phone.session()).toBeNull()
  })

  it("changes the address through a link to the new one, with a notice to the old; the old one works until then", async () => {
    const app = passwordApp({ strategy })
    const browser = await signedUpUser(app, "ada@example.com")
    const wrong = await browser.post("/auth/password/change-email", { newEmail: "ada@new.example", password: "not the password at all" }, { script: true })
    expect(await wrong.json()).toEqual({ error: "InvalidCurrentPassword" })

    const asked = await browser.post("/auth/password/change-email", { newEmail: "Ada@New.example", password: GOOD }, { script: true })
    expect(asked.status).toBe(200)
    expect(await asked.json()).toEqual({ url: `${ORIGIN}/auth/verify-request?provider=password&kind=change-email` })
    const link = app.mailTo("ada@new.example", "change-email")!
    const notice = app.mailTo("ada@example.com", "email-changed-notice")!
    expect(notice.text).toContain("ada@new.example")
    expect(notice.url).toBeUndefined()
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)

    // Followed in the account's own session (elsewhere it asks for a sign-in: see "a change-of-address link").
    const confirmed = await browser.get(linkOf(link))
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/`)
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@new.example", GOOD, { script: true })).status).toBe(200)
    // The link works once.
    expect((await browser.get(linkOf(link))).headers.get("location")).toContain("error=InvalidToken")
  })

  it("never takes another user's address: the answer is the same, its owner is told, and a link is refused", async () => {
    const app = passwordApp({ strategy })
    const ada = await signedUpUser(app, "ada@example.com")
    await signedUpUser(app, "bob@example.com")
    const free = await ada.post("/auth/password/change-email", { newEmail: "free@example.com", password: GOOD }, { script: true })
    const taken = await ada.post("/auth/password/change-email", { newEmail: "bob@example.com", password: GOOD }, { script: true })
    expect(taken.status).toBe(free.status)
    expect(await taken.json()).toEqual(await free.json())
    expect(app.mailTo("bob@example.com", "change-email")).toBeUndefined()
    expect(app.mailTo("bob@example.com", "sign-up-notice")).toBeDefined()

    // Bob's address taken after Ada's link was mailed: following it changes nothing.
    const link = app.mailTo("free@example.com", "change-email")!
    await app.adapter.createUser({ email: "free@example.com", emailVerified: new Date() })
    expect((await ada.get(linkOf(link))).headers.get("location")).toContain("error=InvalidToken")
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
  })

  // The rate limit of a change is keyed on the session's user, read from the row; the change itself
  // reads the same row. One request, one read: the limit's read is handed to the route.
  it("reads the session row once for a limited change of password or address", async () => {
    const app = passwordApp({ strategy, config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
    const browser = await signedUpUser(app, "ada@example.com")
    let reads = 0
    const sessionAndUser = app.adapter.getSessionAndUser.bind(app.adapter)
    app.adapter.getSessionAndUser = (token) => (reads++, sessionAndUser(token))
    const rowReads = async (path: string, fields: Record<string, string>) => {
      reads = 0
      const answer = await browser.post(path, fields, { script: true })
      expect(answer.status).toBe(200)
      return reads
    }
    const expected = strategy === "database" ? 1 : 0
    expect(await rowReads("/auth/password/change", { currentPassword: GOOD, newPassword: OTHER })).toBe(expected)
    expect(await rowReads("/auth/password/change-email", { newEmail: "ada@new.example", password: OTHER })).toBe(expected)
  })

  // A JWT carries the address it was sealed with, and a hybrid cache copy the user it copied: the
  // browser that confirms the change must not go on showing the old address.
  it("shows the new address in the browser that confirms the change, and nowhere a stranger opens the link", async () => {
    const app = passwordApp({ strategy, config: strategy === "database" ? { session: { strategy, cache: { maxAge: 300 } } } : {} })
    const browser = await signedUpUser(app, "ada@example.com")
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
    await browser.post("/auth/password/change-email", { newEmail: "ada@new.example", password: GOOD }, { script: true })
    const confirmed = await browser.get(linkOf(app.mailTo("ada@new.example", "change-email")))
    expect(confirmed.status).toBe(302)
    expect((await browser.session())?.user?.email).toBe("ada@new.example")
    expect((await app.auth.auth(new Request(`${ORIGIN}/dashboard`, { headers: { cookie: browser.cookie } })))?.user?.email).toBe("ada@new.example")

    // Bob, signed in, opens Ada's next link: the change is made (the link proves the address), but
    // Bob's session stays Bob's, and no session of Ada's is made in his browser.
    await browser.post("/auth/password/change-email", { newEmail: "ada@third.example", password: GOOD }, { script: true })
    const bob = await signedUpUser(app, "bob@example.com")
    const bobCookie = bob.cookie
    expect((await bob.get(linkOf(app.mailTo("ada@third.example", "change-email")))).status).toBe(302)
    expect((await bob.session())?.user?.email).toBe("bob@example.com")
    expect(bob.cookie).toBe(bobCookie)
  })

})

describe("a new address in a JWT session", () => {
  it("re-seals the token through the jwt callback with trigger update and the updated user, as at sign-in", async () => {
    const calls: { trigger?: string; user?: string | null; session?: unknown }[] = []
    const app = passwordApp({
      config: {
        callbacks: {
          jwt: ({ token, user, trigger, session }) => {
            calls.push({ trigger, user: user?.email, session })
            return user ? { ...token, mailbox: user.email } : token
          },
          session: ({ session, token }) => ({ ...session, mailbox: token.mailbox }),
        },
      },
    })
    const browser = await signedUpUser(app, "ada@example.com")
    await browser.post("/auth/password/change-email", { newEmail: "ada@new.example", password: GOOD }, { script: true })
    calls.length = 0
    await browser.get(linkOf(app.mailTo("ada@new.example", "change-email")))
    // (The link first confirms the session, which reads it: a "session" call.)
    expect(calls.filter((call) => call.trigger !== "session")).toEqual([{ trigger: "update", user: "ada@new.example", session: undefined }])
    expect(await browser.session()).toMatchObject({ user: { email: "ada@new.example" }, mailbox: "ada@new.example" })
  })

  // Re-sealing a token makes a credential: the session version is asked of the store itself, as for
  // every change that lasts, never of a local copy that has not heard of a revocation yet.
  it("re-seals nothing for a session revoked on another instance, whatever this instance's copy says", async () => {
    const versions = new Map<string, number>()
    const store = { get: (id: string, fresh?: boolean) => (fresh ? (versions.get(id) ?? 0) : 0), bump: async (id: string) => (versions.set(id, (versions.get(id) ?? 0) + 1), versions.get(id)!) }
    const app = passwordApp({ config: { session: { strategy: "jwt", revocationStore: store } } })
    const browser = await signedUpUser(app, "ada@example.com")
    await browser.post("/auth/password/change-email", { newEmail: "ada@new.example", password: GOOD }, { script: true })
    await app.auth.revokeSessions((await app.adapter.getUserByEmail("ada@example.com"))!.id)
    const before = browser.cookie
    const confirmed = await browser.get(linkOf(app.mailTo("ada@new.example", "change-email")))
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.getSetCookie()).toEqual([])
    expect(browser.cookie).toBe(before)
  })
})

// The outside review's takeover: someone with Ada's password (and a session) asks to move her
// account to their address. Ada gets the notice, which tells her to reset or change her password;
// doing so must end that pending link, or the intruder confirms it afterwards, takes the address,
// and resets Ada's new password out of her hands.
describe.each(["jwt", "database"] as const)("a pending address change after Ada takes her account back, with %s sessions", (strategy) => {
  async function intruderAsksToMove(app: ReturnType<typeof passwordApp>) {
    const ada = await signedUpUser(app, "ada@example.com")
    const intruder = app.browser()
    expect((await intruder.signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
    expect((await intruder.post("/auth/password/change-email", { newEmail: "intruder@evil.example", password: GOOD }, { script: true })).status).toBe(200)
    expect(app.mailTo("ada@example.com", "email-changed-notice")).toBeDefined()
    return { ada, intruder, link: linkOf(app.mailTo("intruder@evil.example", "change-email")) }
  }

  /** The intruder follows the link: refused in a session that outlived the change, sent to sign in where none did. */
  async function addressIsStillAdas(app: ReturnType<typeof passwordApp>, intruder: Browser, link: string, password: string) {
    const followed = await intruder.get(link)
    const location = new URL(followed.headers.get("location")!)
    expect(location.searchParams.get("error") === "InvalidToken" || location.pathname === "/auth/signin").toBe(true)
    expect((await app.browser().signIn("intruder@evil.example", password, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@example.com", password, { script: true })).status).toBe(200)
  }

  it("a reset ends the link", async () => {
    const app = passwordApp({ strategy })
    const { intruder, link } = await intruderAsksToMove(app)
    await app.browser().post("/auth/password/forgot", { email: "ada@example.com" })
    const query = new URL(linkOf(app.mailTo("ada@example.com", "reset")), ORIGIN).searchParams
    const reset = await app.browser().post("/auth/password/reset", { token: query.get("token")!, email: query.get("email")!, password: OTHER }, { script: true })
    expect(reset.status).toBe(200)
    await addressIsStillAdas(app, intruder, link, OTHER)
  })

  it.each([["keeping", "false"], ["ending", "true"]])("a change of password, %s the other sessions, ends the link", async (_, revokeOtherSessions) => {
    const app = passwordApp({ strategy })
    const { ada, intruder, link } = await intruderAsksToMove(app)
    expect((await ada.post("/auth/password/change", { currentPassword: GOOD, newPassword: OTHER, revokeOtherSessions }, { script: true })).status).toBe(200)
    await addressIsStillAdas(app, intruder, link, OTHER)
  })
})

// The outside review's flood: a change of address mails the new address (a link, or a notice when
// it is taken), and the limit counted only the session's user, so each throwaway account could send
// the same stranger ten mails per 15 minutes. The new address now has a send budget of its own, as
// sign-up's and forgot's addresses do, from any number of accounts and IPs.
it("a change of address mails one stranger no more than the address's send budget, from any number of accounts", async () => {
  const app = passwordApp({ config: { rateLimits: rateLimits(), trustedProxy: "cloudflare" } })
  await signedUpUser(app, "victim@example.com")
  const statuses: number[] = []
  for (let index = 0; index < 8; index++) {
    const attacker = await signedUpUser(app, `attacker${index}@example.com`)
    const answer = await attacker.post("/auth/password/change-email", { newEmail: "Victim@Example.com", password: GOOD }, { script: true, headers: { "cf-connecting-ip": `198.51.100.${index + 1}` } })
    statuses.push(answer.status)
  }
  expect(statuses.filter((status) => status === 429)).toHaveLength(3)
  expect(app.mailbox.filter((mail) => mail.to === "victim@example.com" && mail.kind !== "verify-email")).toHaveLength(5)
})

// The outside review's pre-account takeover: Eve asks to move her account to victim@example.com;
// the link lands in the victim's mailbox, and a mail scanner (or the puzzled victim) opening it
// confirmed the change from any browser, with no session: Eve's account, with her password and
// passkeys, then held the victim's verified address, and the victim's own magic link or OAuth
// sign-in later landed in it. A change of address now completes only in a session of its account.
describe("a change-of-address link", () => {
  async function eveAsksForVictimsAddress() {
    const app = passwordApp()
    const eve = await signedUpUser(app, "eve@evil.test")
    await eve.post("/auth/password/change-email", { newEmail: "victim@example.com", password: GOOD }, { script: true })
    const link = new URL(linkOf(app.mailTo("victim@example.com", "change-email")), ORIGIN)
    const eveUser = () => [...app.adapter.users.values()].find((user) => user.name === "Ada" && (user.email === "eve@evil.test" || user.email === "victim@example.com"))!
    return { app, eve, link, eveUser }
  }

  it("opened without a session (a scanner, the victim) changes nothing and asks for a sign-in", async () => {
    const { app, link, eveUser } = await eveAsksForVictimsAddress()
    const scanner = app.browser()
    const opened = await scanner.get(`${link.pathname}${link.search}`)
    expect(opened.status).toBe(302)
    const next = new URL(opened.headers.get("location")!)
    expect(next.pathname).toBe("/auth/signin")
    expect(next.searchParams.get("callbackUrl")).toBe(link.href)
    expect(eveUser().email).toBe("eve@evil.test")
    expect(await scanner.session()).toBeNull()
  })

  it("opened in another user's session changes nothing", async () => {
    const { app, link, eveUser } = await eveAsksForVictimsAddress()
    const other = await signedUpUser(app, "grace@example.com")
    await other.get(`${link.pathname}${link.search}`)
    expect(eveUser().email).toBe("eve@evil.test")
    expect((await other.session())?.user?.email).toBe("grace@example.com")
  })

  it("completes in the account's own session, even after a sign-in on another device", async () => {
    const { app, link, eveUser } = await eveAsksForVictimsAddress()
    const phone = app.browser()
    const asked = await phone.get(`${link.pathname}${link.search}`)
    const back = new URL(asked.headers.get("location")!).searchParams.get("callbackUrl")!
    await phone.signIn("eve@evil.test", GOOD)
    const opened = await phone.get(back)
    expect(opened.status).toBe(302)
    expect(eveUser().email).toBe("victim@example.com")
    expect((await phone.session())?.user?.email).toBe("victim@example.com")
  })
})
