// Sessions after a reset (issue #28): the thief who holds a session (a copied cookie, another
// browser) must lose it when the owner resets the password, with JWT sessions as with database
// ones, on every store. The stolen session is read the three ways an app reads one: GET /session,
// `auth(request)`, and a lasting change (POST password/change), which must confirm the session and
// never trust the `session.cache` copy of a revoked one.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { account, Browser, expectRefused, ORIGIN, passwordApp, PW, reset, resetLink, signIn, storesHere, STRATEGIES, type PasswordApp, type PasswordStore } from "./password-support.js"

let userCount = 0
const fresh = (name: string) => `${name}${++userCount}@example.com`

/** The session `auth(request)` finds for a browser's cookies (no cookie is set by it). */
async function authOf(app: PasswordApp, browser: Browser) {
  const cookie = [...browser.jar].map(([name, value]) => `${name}=${value}`).join("; ")
  return app.auth.auth(new Request(`${ORIGIN}/dashboard`, { headers: { cookie } }))
}

const variants = [...STRATEGIES.map((strategy) => ({ strategy, cache: false })), { strategy: "database" as const, cache: true }]

for (const { entry, reason } of await storesHere()) {
  for (const { strategy, cache } of variants) {
    const label = `${entry.name}, ${strategy} sessions${cache ? " with session.cache" : ""}`
    describe.skipIf(reason !== undefined)(`sessions after a reset: ${label}${reason ? ` (skipped: ${reason})` : ""}`, () => {
      let store: PasswordStore
      let app: PasswordApp
      beforeAll(async () => {
        store = await entry.setup()
        app = passwordApp({ strategy, adapter: store.adapter, config: cache ? { session: { strategy, cache: { maxAge: 300 } } } : {} })
      }, 30_000)
      afterAll(() => store?.teardown())

      it("a reset ends the session of every other browser (and a copied cookie) on its next read", async () => {
        const ada = fresh("ada")
        const laptop = await account(app, ada, PW.ada)
        const { browser: phone } = await signIn(app, ada, PW.ada)
        const stolen = laptop.clone()
        for (const browser of [laptop, phone, stolen]) expect((await browser.session())?.user?.email).toBe(ada)
        const resetting = app.browser()
        expect((await reset(resetting, await resetLink(app, ada, resetting), PW.fresh)).status).toBe(200)
        if (!cache) {
          // A read that uses the cache copy may answer it until it expires (documented); without it, at once.
          for (const browser of [laptop, phone, stolen]) expect(await browser.session()).toBeNull()
          for (const browser of [laptop, phone, stolen]) expect(await authOf(app, browser)).toBeNull()
        }
        // A lasting change from a stolen session is refused however the session is stored.
        await expectRefused(await stolen.post("/auth/password/change", { currentPassword: PW.fresh, newPassword: "the thief's new passphrase" }), "SessionRequired")
        await expectRefused(await stolen.post("/auth/password/change-email", { newEmail: fresh("thief"), password: PW.fresh }), "SessionRequired")
        expect((await signIn(app, ada, "the thief's new passphrase")).response.status).not.toBe(200)
        expect((await signIn(app, ada, PW.fresh)).response.status).toBe(200)
      })

      it("a change with revokeOtherSessions ends the others and keeps this browser signed in", async () => {
        const ada = fresh("ada")
        const laptop = await account(app, ada, PW.ada)
        const { browser: phone } = await signIn(app, ada, PW.ada)
        const changed = await laptop.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh, revokeOtherSessions: "true" })
        expect(changed.status).toBe(200)
        expect((await laptop.session())?.user?.email).toBe(ada)
        if (!cache) expect(await phone.session()).toBeNull()
        await expectRefused(await phone.post("/auth/password/change", { currentPassword: PW.fresh, newPassword: "the thief's new passphrase" }), "SessionRequired")
        expect((await signIn(app, ada, PW.fresh)).response.status).toBe(200)
      })

      it("sign out everywhere (revokeSessions): the revoked browser's cached copy cannot change the password or the address", async () => {
        const ada = fresh("ada")
        const laptop = await account(app, ada, PW.ada)
        const user = await store.adapter.getUserByEmail!(ada)
        await app.auth.revokeSessions(String(user!.id))
        await expectRefused(await laptop.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh }), "SessionRequired")
        await expectRefused(await laptop.post("/auth/password/change-email", { newEmail: fresh("moved"), password: PW.ada }), "SessionRequired")
        expect((await signIn(app, ada, PW.fresh)).response.status).not.toBe(200)
        expect((await signIn(app, ada, PW.ada)).response.status).toBe(200)
      })
    })
  }
}
