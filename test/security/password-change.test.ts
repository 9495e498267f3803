// Attacks on the signed-in password routes and on every password POST's CSRF check (issue #28):
// a password change by someone who holds the session but not the password (a borrowed laptop, a
// stolen cookie), a change with no session at all, and each POST sent without the CSRF token or
// with another browser's (a cross-site form: the attacker's own token, the victim's cookies). Each
// attempt is checked by what it would have won: a mail sent, an account made, a password or an
// address changed, a session cookie set.
import { beforeAll, describe, expect, it } from "vitest"
import { account, Browser, errorOf, expectRefused, linkTo, passwordApp, pathOf, PW, reset, resetLink, setsSession, signIn, STRATEGIES, type PasswordApp } from "./password-support.js"

const THIEF = "the thief's new passphrase!"
let userCount = 0
const fresh = (name: string) => `${name}${++userCount}@example.com`

const opens = async (app: PasswordApp, email: string, password: string) => (await signIn(app, email, password)).response.status === 200

for (const strategy of STRATEGIES) {
  describe(`password change without the password (${strategy} sessions)`, () => {
    let app: PasswordApp
    beforeAll(() => {
      app = passwordApp({ strategy })
    })

    it("no currentPassword, an empty one, or a wrong one: refused, and the password is unchanged", async () => {
      const ada = fresh("ada")
      const browser = await account(app, ada, PW.ada)
      await expectRefused(await browser.post("/auth/password/change", { newPassword: THIEF }), "InvalidCurrentPassword")
      await expectRefused(await browser.post("/auth/password/change", { currentPassword: "", newPassword: THIEF }), "InvalidCurrentPassword")
      await expectRefused(await browser.post("/auth/password/change", { currentPassword: "not the current passphrase", newPassword: THIEF }), "InvalidCurrentPassword")
      // A JSON body, and the field under other names a lenient parser might take.
      const asJson = await browser.request("/auth/password/change", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ newPassword: THIEF, password: THIEF, csrfToken: await browser.csrf() }) })
      expect(asJson.status).toBeGreaterThanOrEqual(400)
      expect(await opens(app, ada, THIEF)).toBe(false)
      expect(await opens(app, ada, PW.ada)).toBe(true)
    })

    it("no session: SessionRequired, even with the right current password", async () => {
      const ada = fresh("ada")
      await account(app, ada, PW.ada)
      const stranger = app.browser()
      await expectRefused(await stranger.post("/auth/password/change", { currentPassword: PW.ada, newPassword: THIEF }), "SessionRequired")
      await expectRefused(await stranger.post("/auth/password/change", { email: ada, currentPassword: PW.ada, newPassword: THIEF }), "SessionRequired")
      expect(await opens(app, ada, THIEF)).toBe(false)
    })

    it("change-email needs the password too: without it, or with a wrong one, no mail and no change", async () => {
      const ada = fresh("ada")
      const browser = await account(app, ada, PW.ada)
      const before = app.mailbox.length
      await expectRefused(await browser.post("/auth/password/change-email", { newEmail: fresh("thief") }), "InvalidCurrentPassword")
      await expectRefused(await browser.post("/auth/password/change-email", { newEmail: fresh("thief"), password: "not the current passphrase" }), "InvalidCurrentPassword")
      expect(app.mailbox.slice(before)).toEqual([])
      expect((await browser.session())?.user?.email).toBe(ada)
    })
  })

  // A link mailed before the password changed was asked for by whoever knew the old password (or
  // read the mailbox once): the change ends it, so the old password's holder cannot come back by it.
  describe(`links mailed before a change of password (${strategy} sessions)`, () => {
    let app: PasswordApp
    beforeAll(() => {
      app = passwordApp({ strategy })
    })

    it("a pending reset link sets no password after the change", async () => {
      const ada = fresh("ada")
      const laptop = await account(app, ada, PW.ada)
      const link = await resetLink(app, ada)
      expect((await laptop.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh })).status).toBe(200)
      await expectRefused(await reset(app.browser(), link, THIEF), "InvalidToken")
      expect(await opens(app, ada, THIEF)).toBe(false)
      expect(await opens(app, ada, PW.fresh)).toBe(true)
    })

    it("a thief's pending change of address moves nothing after the owner changes the password, though the thief's session lives on", async () => {
      const ada = fresh("ada")
      const laptop = await account(app, ada, PW.ada)
      // The thief holds the old password and a copy of the session cookie, and sends the account to a mailbox of theirs.
      const thief = laptop.clone()
      const thiefMailbox = fresh("thief")
      expect((await thief.post("/auth/password/change-email", { newEmail: thiefMailbox, password: PW.ada })).status).toBe(200)
      const link = linkTo(app.mailbox, thiefMailbox, "confirm-email")
      // The owner changes the password and keeps other sessions (the default), so the thief's copy still reads the account.
      expect((await laptop.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh })).status).toBe(200)
      expect((await thief.session())?.user?.email).toBe(ada)
      await thief.open(pathOf(link))
      expect(await app.adapter.getUserByEmail!(thiefMailbox)).toBeNull()
      expect((await app.adapter.getUserByEmail!(ada))?.email).toBe(ada)
      expect(await opens(app, ada, PW.fresh)).toBe(true)
    })
  })

  describe(`CSRF on every password POST (${strategy} sessions)`, () => {
    let app: PasswordApp
    beforeAll(() => {
      app = passwordApp({ strategy })
    })

    /** The POSTs, each with what it would do if it went through. */
    async function routes() {
      const ada = fresh("ada")
      const victim = await account(app, ada, PW.ada)
      const link = await resetLink(app, ada)
      return {
        ada,
        victim,
        link,
        posts: {
          "callback/password": { email: ada, password: PW.ada },
          "password/sign-up": { email: fresh("new"), password: PW.eve },
          "password/forgot": { email: ada },
          "password/reset": { token: link.searchParams.get("token")!, email: ada, password: THIEF },
          "password/change": { currentPassword: PW.ada, newPassword: THIEF },
          "password/change-email": { newEmail: fresh("thief"), password: PW.ada },
        } as Record<string, Record<string, string>>,
      }
    }

    for (const how of ["missing", "another browser's", "a forged one"] as const) {
      it(`${how} CSRF token: every POST is MissingCSRF and does nothing`, async () => {
        const { ada, victim, link, posts } = await routes()
        const attacker = app.browser()
        const token = how === "missing" ? null : how === "another browser's" ? await attacker.csrf() : "0".repeat(64)
        const mails = app.mailbox.length
        for (const [route, fields] of Object.entries(posts)) {
          // The victim's browser sends its own cookies; the form carries the attacker's token (or none).
          const browser = route === "callback/password" || route === "password/sign-up" ? victim.clone() : victim
          const sessionBefore = browser.jar.get("__Secure-authjs.session-token")
          for (const form of [false, true]) {
            const answer = await browser.post(`/auth/${route}`, fields, { csrfToken: token, form })
            expect({ route, form, error: await errorOf(answer) }).toEqual({ route, form, error: "MissingCSRF" })
            expect({ route, setsSession: setsSession(answer) }).toEqual({ route, setsSession: false })
          }
          expect(browser.jar.get("__Secure-authjs.session-token")).toBe(sessionBefore)
        }
        expect(app.mailbox.slice(mails)).toEqual([])
        expect(await opens(app, ada, THIEF)).toBe(false)
        expect(await opens(app, ada, PW.ada)).toBe(true)
        expect((await victim.session())?.user?.email).toBe(ada)
        // The reset link was not spent by the refused posts.
        expect((await reset(app.browser(), link, PW.fresh)).status).toBe(200)
      })
    }

    it("a GET cannot stand in for a POST: no state changes through the query string", async () => {
      const { ada, victim } = await routes()
      const mails = app.mailbox.length
      for (const path of [
        `/auth/password/change?currentPassword=${encodeURIComponent(PW.ada)}&newPassword=${encodeURIComponent(THIEF)}`,
        `/auth/password/forgot?email=${encodeURIComponent(ada)}`,
        `/auth/password/change-email?newEmail=${encodeURIComponent(fresh("thief"))}&password=${encodeURIComponent(PW.ada)}`,
        `/auth/password/sign-up?email=${encodeURIComponent(fresh("new"))}&password=${encodeURIComponent(PW.eve)}`,
      ]) {
        const answer = await victim.request(path)
        expect({ path, setsSession: setsSession(answer) }).toEqual({ path, setsSession: false })
      }
      expect(app.mailbox.slice(mails)).toEqual([])
      expect(await opens(app, ada, THIEF)).toBe(false)
    })
  })
}

describe("the verification link is the one mailed", () => {
  it("a sign-up's verify link with a re-cased or truncated token verifies nothing", async () => {
    const app = passwordApp({ strategy: "jwt" })
    const email = fresh("new")
    const browser = app.browser()
    expect((await browser.post("/auth/password/sign-up", { email, password: PW.eve })).status).toBe(200)
    const link = linkTo(app.mailbox, email, "verify-email")
    const token = link.searchParams.get("token")!
    for (const guess of [token.slice(0, -1), token.toUpperCase(), `${token}0`]) {
      if (guess === token) continue
      const forged = new URL(link)
      forged.searchParams.set("token", guess)
      const other = app.browser()
      await other.open(pathOf(forged))
      expect(await other.session()).toBeNull()
    }
    // Unverified, the password alone does not sign in (EmailNotVerified, only after a correct password).
    await expectRefused((await signIn(app, email, PW.eve)).response, "EmailNotVerified")
    // (A sign-in may have mailed a fresh link, which supersedes the first: follow the newest. In a
    // browser other than the one that asked, the password confirms it.)
    const genuine = new Browser(app.handler)
    const newest = linkTo(app.mailbox, email, "verify-email")
    await genuine.post("/auth/password/verify-email", { token: newest.searchParams.get("token")!, email, password: PW.eve })
    expect((await genuine.session())?.user?.email).toBe(email)
  })
})
