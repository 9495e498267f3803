// Outside review, round five: attacks on password accounts through createAuth(...).handler with a
// browser-like cookie jar (test/security/password-support.ts). Each test asserts the SAFE behaviour:
// a failing test is a finding. What the existing suites already prove is not repeated here.
//
// 1. Look-alike addresses on a store whose collation folds accents (MariaDB's default
//    utf8mb4_general_ci, the store the suite's own MariaDB entry uses): `ada@exämple.com` and
//    `ada@example.com` are two mailboxes (an attacker can register the IDN domain) but one row to
//    `getUserByEmail`. The routes trust that answer as "the user with this address".
// 2. Reset links after a change of address; one reset link submitted twice at the same instant.
// 3. callbackUrl / redirect targets on every password route, the mailed links included.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { account, errorOf, json, linksIn, linkTo, ORIGIN, passwordApp, pathOf, PW, reset, resetLink, signIn, STORES, STRATEGIES, type PasswordApp, type PasswordStore } from "./password-support.js"

const ATTACKER = "the attacker's chosen passphrase"
const EVIL = ["https://evil.example/phish", "//evil.example/phish", "/\\evil.example/phish", "https:evil.example"]
let count = 0
const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
const fresh = (name: string, domain = "example.com") => `${name}${++count}${tag}@${domain}`

const opens = async (app: PasswordApp, email: string, password: string) => (await signIn(app, email, password)).response.status === 200

/** Where an answer sends the browser: its Location, or the `{ url }` a script gets. */
async function destination(answer: Response): Promise<string | undefined> {
  const location = answer.headers.get("location")
  if (location) return new URL(location, ORIGIN).href
  const body = await json(answer).catch(() => undefined)
  return typeof body?.url === "string" ? new URL(body.url, ORIGIN).href : undefined
}

// ---------------------------------------------------------------------------------------------
// 1. Accent look-alikes on MariaDB (its default collation), the suite's own store.
const mariadb = STORES.find((entry) => entry.name === "mariadb")!
const mariadbDown = await mariadb.skipReason()

describe.skipIf(mariadbDown !== undefined)(`accent look-alike addresses on MariaDB's default collation${mariadbDown ? ` (skipped: ${mariadbDown})` : ""}`, () => {
  let store: PasswordStore
  beforeAll(async () => {
    store = await mariadb.setup()
  }, 60_000)
  afterAll(() => store?.teardown())

  it("forgot for a look-alike mails the look-alike nothing (the account's own address only, never the spelling typed)", async () => {
    const app = passwordApp({ strategy: "jwt", adapter: store.adapter })
    const ada = fresh("ada")
    const lookAlike = ada.replace("@example.com", "@exämple.com")
    await account(app, ada, PW.ada)
    const before = app.mailbox.length
    expect((await app.browser().post("/auth/password/forgot", { email: lookAlike })).status).toBe(200)
    const sent = app.mailbox.slice(before)
    // The attacker owns exämple.com: whatever lands there is theirs.
    expect(sent.filter((mail) => mail.to === lookAlike).map((mail) => mail.subject)).toEqual([])
    // What the leaked link is worth: the reset is refused, and Ada's password still opens.
    for (const mail of sent) for (const link of linksIn(mail)) if (link.pathname.endsWith("/password/reset")) await reset(app.browser(), link, ATTACKER)
    expect(await opens(app, ada, ATTACKER)).toBe(false)
    expect(await opens(app, ada, PW.ada)).toBe(true)
  })

  it("sign-up and change-email for a look-alike mail it what a free address would get (no 'already has an account' notice)", async () => {
    const app = passwordApp({ strategy: "jwt", adapter: store.adapter })
    const ada = fresh("ada")
    await account(app, ada, PW.ada)
    const lookAlike = ada.replace("@example.com", "@exämple.com")
    const unknown = fresh("nobody", "exämple.com")
    const subjectsTo = async (post: () => Promise<Response>, to: string) => {
      const before = app.mailbox.length
      expect((await post()).status).toBe(200)
      return app.mailbox.slice(before).filter((mail) => mail.to === to).map((mail) => mail.subject)
    }
    const signUp = (email: string) => () => app.browser().post("/auth/password/sign-up", { email, password: PW.eve })
    expect(await subjectsTo(signUp(lookAlike), lookAlike)).toEqual(await subjectsTo(signUp(unknown), unknown))
    const eve = await account(app, fresh("eve"), PW.eve)
    const unknown2 = fresh("nobody", "exämple.com")
    const move = (newEmail: string) => () => eve.post("/auth/password/change-email", { newEmail, password: PW.eve })
    expect(await subjectsTo(move(lookAlike), lookAlike)).toEqual(await subjectsTo(move(unknown2), unknown2))
  })

  it("a verified look-alike account never receives the real owner's later magic-link sign-in (pre-account-takeover)", async () => {
    const links: string[] = []
    const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) }
    const app = passwordApp({ strategy: "jwt", adapter: store.adapter, providers: [magic] as never })
    const ada = fresh("ada")
    const lookAlike = ada.replace("@example.com", "@exämple.com")
    // Eve owns the look-alike mailbox: she signs up there first and verifies it honestly.
    await account(app, lookAlike, PW.eve)
    // Ada, the owner of ada@example.com, later signs in with a magic link sent to her own mailbox.
    const victim = app.browser()
    await victim.post("/auth/signin/email", { email: ada })
    expect(links.map((link) => new URL(link).searchParams.get("email"))).toEqual([ada])
    await victim.open(pathOf(new URL(links[0]!)))
    const adaSession = await victim.session()
    // Eve signs in with her password: she must not be in the account Ada now works in.
    const eve = await signIn(app, lookAlike, PW.eve)
    const eveSession = await eve.browser.session()
    // On this collation Ada cannot have a row of her own beside Eve's (the unique index folds the two
    // addresses as well): her link is refused, never joined to Eve's user. A binary collation on
    // `email` (docs/databases.md) gives her one: test/passwords/collation.test.ts.
    expect({ sameAccount: adaSession?.user?.id !== undefined && adaSession.user.id === eveSession?.user?.id, adaInEves: adaSession?.user?.email === lookAlike }).toEqual({ sameAccount: false, adaInEves: false })
  })

  it("the owner's sign-up, then forgot, never reach the look-alike's account: Ada's password does not open it, Eve's still does", async () => {
    const app = passwordApp({ strategy: "jwt", adapter: store.adapter })
    const ada = fresh("ada")
    const lookAlike = ada.replace("@example.com", "@exämple.com")
    await account(app, lookAlike, PW.eve)
    // Ada signs up with her own address, and failing that asks for a reset: one of them must let her in.
    await app.browser().post("/auth/password/sign-up", { email: ada, password: PW.ada })
    const verify = app.mailbox.filter((mail) => mail.to === ada).flatMap(linksIn).find((url) => url.pathname.endsWith("/password/verify-email"))
    if (verify) await app.browser().post("/auth/password/verify-email", { token: verify.searchParams.get("token")!, email: ada, password: PW.ada })
    else {
      const link = await resetLink(app, ada)
      await reset(app.browser(), link, PW.ada)
    }
    // The owner cannot have her own row on this collation (see the test above); what must hold is
    // that nothing she did was done to Eve's account.
    expect(await opens(app, lookAlike, PW.ada)).toBe(false)
    expect(await opens(app, lookAlike, PW.eve)).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// 2. Reset links against a change of address, and against themselves.
for (const strategy of STRATEGIES) {
  describe(`reset links and changes of address (${strategy} sessions)`, () => {
    it("a reset link mailed before a change of address resets nothing after it (nor does the link moved onto the new address)", async () => {
      const app = passwordApp({ strategy })
      const [ada, moved] = [fresh("ada"), fresh("moved")]
      const browser = await account(app, ada, PW.ada)
      const link = await resetLink(app, ada)
      expect((await browser.post("/auth/password/change-email", { newEmail: moved, password: PW.ada })).status).toBe(200)
      await browser.open(pathOf(linkTo(app.mailbox, moved, "confirm-email")))
      expect((await browser.session())?.user?.email).toBe(moved)
      expect(await errorOf(await reset(app.browser(), link, ATTACKER))).toBe("InvalidToken")
      expect(await errorOf(await reset(app.browser(), link, ATTACKER, { email: moved }))).toBe("InvalidToken")
      expect(await opens(app, moved, ATTACKER)).toBe(false)
      expect(await opens(app, moved, PW.ada)).toBe(true)
    })

    // A mutation probe: only the route that confirms a change of address ended the links; an app that
    // moves an account itself (its own admin page calling updateUser) ends none. Each link is still
    // checked against the address the account has now, so the old mailbox's holder gains nothing.
    it("a reset link mailed before the app itself moved the account to another address resets nothing", async () => {
      const app = passwordApp({ strategy })
      const [ada, moved] = [fresh("ada"), fresh("moved")]
      await account(app, ada, PW.ada)
      const link = await resetLink(app, ada)
      const user = (await app.adapter.getUserByEmail!(ada))!
      await app.adapter.updateUser!({ id: user.id, email: moved })
      expect(await errorOf(await reset(app.browser(), link, ATTACKER))).toBe("InvalidToken")
      expect(await errorOf(await reset(app.browser(), link, ATTACKER, { email: moved }))).toBe("InvalidToken")
      expect(await opens(app, moved, ATTACKER)).toBe(false)
      expect(await opens(app, moved, PW.ada)).toBe(true)
    })

    it("a verification link mailed before the app itself moved the account verifies neither address", async () => {
      const app = passwordApp({ strategy })
      const [ada, moved] = [fresh("ada"), fresh("moved")]
      const browser = app.browser()
      expect((await browser.post("/auth/password/sign-up", { email: ada, password: PW.ada })).status).toBe(200)
      const link = linkTo(app.mailbox, ada, "verify-email")
      const user = (await app.adapter.getUserByEmail!(ada))!
      await app.adapter.updateUser!({ id: user.id, email: moved })
      // Opened in the browser that signed up, where a link verifies at once.
      await browser.open(pathOf(link))
      expect((await app.adapter.getUser!(user.id))?.emailVerified).toBeFalsy()
      expect(await browser.session()).toBeNull()
    })

    it("one reset link posted twice at the same instant with two passwords: exactly one is set", async () => {
      const app = passwordApp({ strategy })
      const ada = fresh("ada")
      await account(app, ada, PW.ada)
      const link = await resetLink(app, ada)
      const [first, second] = ["first racing passphrase ok", "second racing passphrase ok"]
      const answers = await Promise.all([reset(app.browser(), link, first), reset(app.browser(), link, second)])
      const won = await Promise.all(answers.map(async (answer) => (await errorOf(answer)) === undefined && answer.status === 200))
      expect(won.filter(Boolean)).toHaveLength(1)
      expect([await opens(app, ada, first), await opens(app, ada, second)].filter(Boolean)).toHaveLength(1)
    })

    it("an older and a newer reset link posted at the same instant: the older never sets a password", async () => {
      const app = passwordApp({ strategy })
      const ada = fresh("ada")
      await account(app, ada, PW.ada)
      const older = await resetLink(app, ada)
      await new Promise((resolve) => setTimeout(resolve, 1100)) // a later second: expiries differ by whole seconds
      const newer = await resetLink(app, ada)
      expect(newer.searchParams.get("token")).not.toBe(older.searchParams.get("token"))
      await Promise.all([reset(app.browser(), older, ATTACKER), reset(app.browser(), newer, PW.fresh)])
      expect(await opens(app, ada, ATTACKER)).toBe(false)
    })
  })
}

// ---------------------------------------------------------------------------------------------
// 3. No password route sends the browser off the origin, whatever callbackUrl says (in the form,
// or carried inside a mailed link).
describe("callbackUrl on every password route stays on the origin", () => {
  const onOrigin = async (label: string, answer: Response) => {
    const target = await destination(answer)
    if (process.env.REVIEW5_DEBUG) console.warn(label, answer.status, target)
    // Every one of these answers is a redirect (or a script's `{ url }`): none may be missing or leave.
    expect({ label, origin: target === undefined ? "none" : new URL(target).origin }).toEqual({ label, origin: ORIGIN })
  }

  for (const evil of EVIL) {
    it(`callbackUrl=${evil}`, async () => {
      const app = passwordApp({ strategy: "database" })
      const open = passwordApp({ strategy: "jwt", provider: { requireEmailVerification: false } })
      const ada = fresh("ada")
      const browser = await account(app, ada, PW.ada)
      // Sign-in (JSON and form), and a sign-up signed in at once.
      await onOrigin("sign-in (form)", await app.browser().post("/auth/callback/password", { email: ada, password: PW.ada, callbackUrl: evil }, { form: true }))
      await onOrigin("sign-in (json)", await app.browser().post("/auth/callback/password", { email: ada, password: PW.ada, callbackUrl: evil }))
      await onOrigin("sign-up (no verification)", await open.browser().post("/auth/password/sign-up", { email: fresh("bob"), password: PW.bob, callbackUrl: evil }))
      await onOrigin("sign-in wrong password", await app.browser().post("/auth/callback/password", { email: ada, password: "wrong wrong wrong wrong", callbackUrl: evil }, { form: true }))
      // Verification link, carrying the callbackUrl the sign-up gave: in the same browser, and confirmed elsewhere.
      const carol = fresh("carol")
      const signingUp = app.browser()
      await signingUp.post("/auth/password/sign-up", { email: carol, password: PW.bob, callbackUrl: evil })
      const verify = linkTo(app.mailbox, carol, "verify-email")
      await onOrigin("verify-email GET", await signingUp.request(pathOf(verify)))
      const dave = fresh("dave")
      await app.browser().post("/auth/password/sign-up", { email: dave, password: PW.bob, callbackUrl: evil })
      const daveLink = linkTo(app.mailbox, dave, "verify-email")
      await onOrigin("verify-email POST", await app.browser().post("/auth/password/verify-email", { token: daveLink.searchParams.get("token")!, email: dave, password: PW.bob, callbackUrl: evil }))
      // Forgot → mailed link → reset.
      await app.browser().post("/auth/password/forgot", { email: ada, callbackUrl: evil })
      const link = linkTo(app.mailbox, ada, "reset")
      const resetBrowser = app.browser()
      await onOrigin("reset", await resetBrowser.post("/auth/password/reset", { token: link.searchParams.get("token")!, email: ada, password: PW.fresh, callbackUrl: link.searchParams.get("callbackUrl") ?? evil }))
      // Change of password: refused, done, done everywhere.
      await onOrigin("change refused", await resetBrowser.post("/auth/password/change", { currentPassword: "not the password at all", newPassword: PW.ada, callbackUrl: evil }, { form: true }))
      await onOrigin("change", await resetBrowser.post("/auth/password/change", { currentPassword: PW.fresh, newPassword: PW.ada, callbackUrl: evil }))
      await onOrigin("change everywhere", await resetBrowser.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.fresh, revokeOtherSessions: "true", callbackUrl: evil }))
      // Change of address, and its mailed link.
      const moved = fresh("moved")
      await onOrigin("change-email", await resetBrowser.post("/auth/password/change-email", { newEmail: moved, password: PW.fresh, callbackUrl: evil }, { form: true }))
      await onOrigin("confirm-email", await resetBrowser.request(pathOf(linkTo(app.mailbox, moved, "confirm-email"))))
      await onOrigin("confirm-email (edited link)", await browser.request(`/auth/password/confirm-email?token=x&email=${encodeURIComponent(moved)}&callbackUrl=${encodeURIComponent(evil)}`))
    })
  }
})
